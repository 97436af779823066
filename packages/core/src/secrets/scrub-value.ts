import { FILTERED, type SecretMatcher } from './secret-matcher.js';

/** Counts what one deep scrub replaced, so a caller can ask whether a value held a secret at all. */
export interface ScrubTally {
  replaced: number;
}

/** Stands in for an object met again inside itself, which JSON could not write either. */
const CIRCULAR = '[Circular]';

/**
 * A deep copy of a value as JSON would write it, with every secret replaced: in strings (and runs
 * of adjacent strings), numbers in written form, object keys, and bytes — a `Buffer` (written as
 * `{ type: 'Buffer', data }`), a typed array (written as an object keyed by index) or a plain
 * array of byte values. `toJSON()` is honoured first, so a `Date` stays its ISO string.
 */
export function scrubValue(matcher: SecretMatcher, value: unknown, tally: ScrubTally = { replaced: 0 }): unknown {
  return new ValueScrub(matcher, tally).walk(value);
}

class ValueScrub {
  /** The objects being walked, outermost first: a value met again among them is a cycle. */
  private readonly ancestors = new Set<object>();

  constructor(
    private readonly matcher: SecretMatcher,
    private readonly tally: ScrubTally,
  ) {}

  walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number' || typeof value === 'bigint') return this.number(value);
    if (typeof value !== 'object' || value === null) return value;
    if (this.ancestors.has(value)) return CIRCULAR;
    this.ancestors.add(value);
    try {
      return this.object(value);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private object(value: object): unknown {
    if ('toJSON' in value && typeof value.toJSON === 'function') {
      const json: unknown = value.toJSON();
      if (json !== value) return this.walk(json);
    }
    if (ArrayBuffer.isView(value)) return this.view(value);
    if (Array.isArray(value)) return this.bytes(value) ?? this.items(value);
    const entries = Object.entries(value);
    if (entries[0]?.[0] === '0' && entries.every(([key], index) => key === String(index))) {
      const bytes = this.bytes(entries.map(([, item]) => item));
      if (bytes !== undefined) return indexKeyed(bytes);
    }
    const keys = entries.map(([key]) => this.text(key));
    const values = this.items(entries.map(([, item]) => item));
    return Object.fromEntries(keys.map((key, index) => [key, values[index]]));
  }

  /** A typed array, written as JSON writes it: an object keyed by index. */
  private view(view: ArrayBufferView): unknown {
    if (view instanceof DataView) return {};
    const items: unknown[] = Array.from(view as unknown as ArrayLike<unknown>);
    return indexKeyed(this.bytes(items) ?? items.map((item) => this.walk(item)));
  }

  /**
   * Each item scrubbed; strings side by side are scrubbed as one run, so a split secret is found.
   * A number, boolean or null between two strings does not end the run (`['tok_ab', 2, 'cd']`):
   * a tool that spreads a token over fields puts counters and flags among them. An object or array
   * between does.
   */
  private items(items: readonly unknown[]): unknown[] {
    const scrubbed = items.map((item) => (typeof item === 'string' ? item : this.walk(item)));
    let start = 0;
    while (start < items.length) {
      if (typeof items[start] !== 'string') {
        start += 1;
        continue;
      }
      const positions: number[] = [];
      let end = start;
      for (; end < items.length && (typeof items[end] === 'string' || isScalar(items[end])); end += 1) {
        if (typeof items[end] === 'string') positions.push(end);
      }
      const run = positions.map((position) => items[position] as string);
      this.matcher.replaceRun(run).forEach((piece, index) => {
        if (piece !== run[index]) this.tally.replaced += 1;
        scrubbed[positions[index] as number] = piece;
      });
      start = end;
    }
    return scrubbed;
  }

  private bytes(items: readonly unknown[]): number[] | undefined {
    if (items.length < this.matcher.minimumBytes || !items.every(isByte)) return undefined;
    const scrubbed = this.matcher.replaceBytes(items as number[]);
    if (scrubbed !== undefined) this.tally.replaced += 1;
    return scrubbed;
  }

  private text(value: string): string {
    const scrubbed = this.matcher.replace(value);
    if (scrubbed !== value) this.tally.replaced += 1;
    return scrubbed;
  }

  private number(value: number | bigint): number | bigint | string {
    if (!this.matcher.holds(String(value))) return value;
    this.tally.replaced += 1;
    return FILTERED;
  }
}

/** A value between strings that does not end their run. */
function isScalar(item: unknown): boolean {
  return item === null || typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint';
}

function isByte(item: unknown): boolean {
  return typeof item === 'number' && Number.isInteger(item) && item >= 0 && item <= 255;
}

function indexKeyed(items: readonly unknown[]): Record<string, unknown> {
  return Object.fromEntries(items.map((item, index) => [String(index), item]));
}
