import type { InputRequestJSON, JsonValue } from '../input-request/input-request-json.js';
import { scrubInputRequest } from './scrub-input-request.js';
import { scrubValue } from './scrub-value.js';
import { secretLeaves } from './secret-leaves.js';
import { FILTERED, SecretMatcher } from './secret-matcher.js';

export { FILTERED };

/**
 * Replaces the generation's secret answers wherever they appear, in the forms a tool writes them
 * (as typed, case-folded, NFC/NFD, JSON-escaped, URL-encoded, hex and base64 of its UTF-8 and
 * UTF-16 bytes in each case, base64 wrapped into lines, bytes, split over strings side by side:
 * `secret-forms.ts`, `wrapped-lines.ts`). Secrets are compared in written form, so a numeric secret
 * `4921` is caught in `"pin 4921"` and in the number `4921` alike; one shorter than
 * `SHORT_SECRET_LENGTH` only where a whole value equals it.
 */
export class Scrubber {
  private readonly matcher = new SecretMatcher();
  /** Real values of options shown as placeholders, by tool call id, then placeholder. */
  private readonly heldOptions = new Map<string, Map<string, JsonValue>>();

  get isEmpty(): boolean {
    return this.matcher.isEmpty;
  }

  /**
   * Adds every leaf of a secret answer: strings and numbers in written form, and the keys of its
   * objects other than those its request's `schema` declares.
   */
  add(answer: unknown, schema?: Record<string, unknown>): void {
    for (const leaf of secretLeaves(answer, schema)) this.matcher.add(leaf);
  }

  /** A text with every secret replaced (a short secret only if it is the whole text). */
  text(value: string): string {
    return this.isEmpty ? value : this.matcher.replace(value);
  }

  /** A deep copy of a JSON-like value with every secret replaced (see `scrubValue`). */
  value<T>(value: T): T {
    if (this.isEmpty) return value;
    return scrubValue(this.matcher, value) as T;
  }

  /** A question asked after a secret, scrubbed (see `scrubInputRequest`). */
  inputRequest<Request extends InputRequestJSON>(request: Request): Request {
    // Scrubbing replaces values, never the call a question is bound to.
    return scrubInputRequest(this, request) as Request;
  }

  /** Keeps the real value of an option `scrubInputRequest` replaced, in memory only. */
  holdOption(toolCallId: string, placeholder: string, value: JsonValue): void {
    const held = this.heldOptions.get(toolCallId) ?? new Map<string, JsonValue>();
    held.set(placeholder, value);
    this.heldOptions.set(toolCallId, held);
  }

  /** The real value behind a placeholder option of a call's question, if this scrubber replaced it. */
  heldOption(toolCallId: string, placeholder: string): { value: JsonValue } | undefined {
    const held = this.heldOptions.get(toolCallId);
    return held?.has(placeholder) ? { value: held.get(placeholder) as JsonValue } : undefined;
  }

  /** Whether a value holds a secret anywhere `value()` would replace one. */
  contains(value: unknown): boolean {
    if (this.isEmpty) return false;
    if (typeof value === 'string') return this.matcher.holds(value);
    const tally = { replaced: 0 };
    scrubValue(this.matcher, value, tally);
    return tally.replaced > 0;
  }
}
