import { byteFormsOf, escapeRegExp, foldCase, formPatternsOf, isShortSecret } from './secret-forms.js';
import { holdsAcrossLineBreaks, replaceAcrossLineBreaks } from './wrapped-lines.js';

/** What a secret is replaced with, wherever it is found: the same marker for every form. */
export const FILTERED = '[FILTERED]';

/**
 * Finds a generation's secrets in text, in runs of adjacent strings and in bytes. Every form of
 * every secret is compiled into one case-insensitive pattern (longest form first, so a form that
 * holds another is replaced whole), rebuilt when a secret is added: answers are rare, scrubbing is
 * not. Short secrets are kept apart and compared with whole values only.
 */
export class SecretMatcher {
  private readonly secrets = new Set<string>();
  private readonly textPatterns = new Set<string>();
  private readonly byteForms = new Set<string>();
  private readonly shortSecrets = new Set<string>();
  /** The longest a value equal to a short secret can be, whatever its case or normal form. */
  private shortLength = 0;
  private replacer: RegExp | undefined;
  private finder: RegExp | undefined;
  private byteReplacer: RegExp | undefined;
  private fewestBytes = Number.POSITIVE_INFINITY;

  get isEmpty(): boolean {
    return this.secrets.size === 0;
  }

  /** The fewest bytes a secret found in a byte array can have: shorter arrays are not read as bytes. */
  get minimumBytes(): number {
    return this.fewestBytes;
  }

  /** Adds a secret in written form (a number as `String(number)`). */
  add(secret: string): void {
    if (secret.length === 0 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    if (isShortSecret(secret)) {
      this.shortSecrets.add(foldCase(secret));
      for (const form of [secret, secret.normalize('NFD'), secret.toUpperCase(), secret.toLowerCase()]) {
        this.shortLength = Math.max(this.shortLength, form.normalize('NFD').length);
      }
      return;
    }
    for (const pattern of formPatternsOf(secret)) this.textPatterns.add(pattern);
    for (const form of byteFormsOf(secret)) {
      this.byteForms.add(form);
      this.fewestBytes = Math.min(this.fewestBytes, form.length);
    }
    const text = alternation(this.textPatterns);
    this.replacer = new RegExp(text, 'gi');
    this.finder = new RegExp(text, 'i');
    this.byteReplacer = new RegExp(alternation([...this.byteForms].map(escapeRegExp)), 'g');
  }

  /** Whether the whole value is a short secret (a long one is found by `holds`). */
  isWholeShortSecret(value: string): boolean {
    return value.length <= this.shortLength && this.shortSecrets.has(foldCase(value));
  }

  /** Whether a text holds a secret in any form (or is a short one). */
  holds(text: string): boolean {
    if (this.isWholeShortSecret(text)) return true;
    if (this.finder === undefined) return false;
    return this.finder.test(text) || holdsAcrossLineBreaks(text, this.finder);
  }

  /** The text with every form of every secret replaced by `FILTERED`, line-wrapped base64 included. */
  replace(text: string): string {
    if (this.isWholeShortSecret(text)) return FILTERED;
    return this.replacer === undefined ? text : this.acrossLines(text.replace(this.replacer, FILTERED));
  }

  /** What `replace` finds in base64 wrapped into lines (`wrapped-lines.ts`), replaced. */
  private acrossLines(text: string): string {
    return this.replacer === undefined ? text : replaceAcrossLineBreaks(text, this.replacer, FILTERED);
  }

  /**
   * Strings that sit side by side in one object or array, read as one text: a secret split over
   * `token_start` and `token_end` is found, and each string loses its part of it.
   */
  replaceRun(pieces: readonly string[]): string[] {
    if (pieces.length === 1 || this.replacer === undefined) return pieces.map((piece) => this.replace(piece));
    const joined = pieces.join('');
    // No long secret in the whole run, so none in a piece: only a short one can still be there.
    if (!(this.finder?.test(joined) ?? false)) {
      return pieces.map((piece) => (this.isWholeShortSecret(piece) ? FILTERED : this.acrossLines(piece)));
    }
    const found = [...joined.matchAll(this.replacer)].map((match) => ({
      from: match.index,
      to: match.index + match[0].length,
    }));
    let offset = 0;
    return pieces.map((piece) => {
      const start = offset;
      const end = start + piece.length;
      offset = end;
      if (this.isWholeShortSecret(piece)) return FILTERED;
      let scrubbed = '';
      let cursor = start;
      for (const { from, to } of found) {
        if (to <= start || from >= end || start === end) continue;
        scrubbed += `${joined.slice(cursor, Math.max(from, start))}${FILTERED}`;
        cursor = Math.min(to, end);
      }
      return this.acrossLines(scrubbed + joined.slice(cursor, end));
    });
  }

  /** Bytes (0–255) with each secret's UTF-8 bytes replaced by those of `[FILTERED]`, or undefined if none is there. */
  replaceBytes(bytes: ArrayLike<number>): number[] | undefined {
    if (this.byteReplacer === undefined || bytes.length < this.minimumBytes) return undefined;
    const text = Buffer.from(Array.from(bytes)).toString('latin1');
    const scrubbed = text.replace(this.byteReplacer, FILTERED);
    return scrubbed === text ? undefined : [...Buffer.from(scrubbed, 'latin1')];
  }
}

/** One pattern of many, the longest first: a form that holds another is replaced whole. */
function alternation(patterns: Iterable<string>): string {
  return [...patterns].sort((a, b) => b.length - a.length).join('|');
}
