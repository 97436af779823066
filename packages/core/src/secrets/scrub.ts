import { type ChoiceOption, type InputRequestJSON, isLabelledOption } from '../input-request/input-request.js';
import { scrubValue } from './scrub-value.js';
import { secretLeaves } from './secret-leaves.js';
import { FILTERED, SecretMatcher } from './secret-matcher.js';

export { FILTERED };

/**
 * Replaces the generation's secret answers wherever they appear, in the forms a tool writes them
 * (as typed, case-folded, NFC/NFD, JSON-escaped, URL-encoded, hex, base64, bytes, split over
 * adjacent strings: `secret-forms.ts`). Secrets are compared in written form, so a numeric secret
 * `4921` is caught in `"pin 4921"` and in the number `4921` alike; one shorter than
 * `SHORT_SECRET_LENGTH` only where a whole value equals it.
 */
export class Scrubber {
  private readonly matcher = new SecretMatcher();

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

  text(value: string): string {
    return this.isEmpty ? value : this.matcher.replace(value);
  }

  /** A deep copy of a JSON-like value with every secret replaced (see `scrubValue`). */
  value<T>(value: T): T {
    if (this.isEmpty) return value;
    return scrubValue(this.matcher, value) as T;
  }

  /**
   * An input request with the text its tool wrote (prompt, metadata, arguments, option labels)
   * scrubbed. What identifies it (kind, call id, tool name) and what defines a valid answer (option
   * values, schema) is kept verbatim: those existed before any secret was answered, so they cannot
   * carry one, and a secret that merely equals `confirm` or an option must not turn the request into
   * one nobody can read or answer.
   */
  inputRequest(request: InputRequestJSON): InputRequestJSON {
    if (this.isEmpty) return request;
    // Assigned over a copy, so the keys keep the order `toJSON()` wrote them in.
    const scrubbed: InputRequestJSON = { ...request, prompt: this.text(request.prompt) };
    if (request.options !== undefined) scrubbed.options = request.options.map((option) => this.option(option));
    if (request.metadata !== undefined) scrubbed.metadata = this.value(request.metadata);
    if ('arguments' in request) scrubbed.arguments = this.value(request.arguments);
    return scrubbed;
  }

  /** Whether a value holds a secret anywhere `value()` would replace one. */
  contains(value: unknown): boolean {
    if (this.isEmpty) return false;
    if (typeof value === 'string') return this.matcher.holds(value);
    const tally = { replaced: 0 };
    scrubValue(this.matcher, value, tally);
    return tally.replaced > 0;
  }

  private option(option: ChoiceOption): ChoiceOption {
    return isLabelledOption(option) ? { ...option, label: this.text(option.label) } : option;
  }
}
