import { type ChoiceOption, type InputRequestJSON, isLabelledOption } from '../input-request/input-request.js';

export const FILTERED = '[FILTERED]';

/**
 * Replaces the generation's secret answers wherever they appear. Secrets are compared in written
 * form, so a numeric secret `4921` is caught in `"pin 4921"` and in the number `4921` alike.
 */
export class Scrubber {
  private readonly secrets: string[] = [];

  get isEmpty(): boolean {
    return this.secrets.length === 0;
  }

  /** Adds every leaf of a secret answer (strings and numbers, in written form). */
  add(answer: unknown): void {
    for (const leaf of leavesOf(answer)) {
      if (leaf.length > 0 && !this.secrets.includes(leaf)) this.secrets.push(leaf);
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  text(value: string): string {
    let scrubbed = value;
    for (const secret of this.secrets) scrubbed = scrubbed.split(secret).join(FILTERED);
    return scrubbed;
  }

  /** A deep copy of a JSON-like value with every secret replaced. */
  value<T>(value: T): T {
    if (this.isEmpty) return value;
    return this.walk(value) as T;
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

  contains(value: unknown): boolean {
    if (this.isEmpty) return false;
    const written = typeof value === 'string' ? value : safeStringify(value);
    return this.secrets.some((secret) => written.includes(secret));
  }

  private option(option: ChoiceOption): ChoiceOption {
    return isLabelledOption(option) ? { ...option, label: this.text(option.label) } : option;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number' || typeof value === 'bigint') {
      const written = String(value);
      return this.text(written) === written ? value : FILTERED;
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (typeof value === 'object' && value !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[this.text(key)] = this.walk(item);
      return copy;
    }
    return value;
  }
}

function leavesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return typeof value === 'boolean' ? [] : [String(value)];
  }
  if (Array.isArray(value)) return value.flatMap(leavesOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leavesOf);
  return [];
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
