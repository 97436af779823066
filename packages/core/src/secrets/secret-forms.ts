/**
 * Secrets shorter than this many characters are replaced only where a whole value equals them. A
 * PIN `1` found inside text would turn order 1042 into `[FILTERED]042` and every date into
 * nonsense; as a whole value (`{ pin: '1' }`, a number `1`) it is still caught.
 */
export const SHORT_SECRET_LENGTH = 4;

/** Whether a secret is matched as a whole value only (see `SHORT_SECRET_LENGTH`). */
export function isShortSecret(secret: string): boolean {
  return [...secret.normalize('NFC')].length < SHORT_SECRET_LENGTH;
}

/** How a short secret and a value are compared: the same text whatever its case or normal form. */
export function foldCase(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/**
 * Every written form of a secret that a tool produces in practice, as regular-expression sources,
 * worked out once when the secret is answered so that scrubbing stays one pass over the text.
 * Matching is case-insensitive, which also covers upper- and lower-case hex and percent-escapes.
 * Text is matched through JSON escaping at any depth (a secret in a JSON string in another JSON
 * string…). A form that only appears in part (base64 of data that starts mid-group) is
 * represented by the characters the secret alone decides.
 */
export function formPatternsOf(secret: string): string[] {
  const patterns = new Set<string>();
  const literals = new Set<string>();
  for (const text of normalForms(secret)) {
    for (const form of urlEncodings(text)) literals.add(form);
    patterns.add(bytesInText(Buffer.from(text, 'utf8')));
    // Encoded after case-folding too (a tool that upper-cases a token, then base64s it); the
    // case-insensitive match already covers capital hex of the same bytes.
    for (const cased of new Set([text, text.toUpperCase(), text.toLowerCase()])) {
      patterns.add(throughJsonEscapes(cased));
      for (const bytes of encodedBytes(cased)) {
        literals.add(bytes.toString('hex'));
        for (const form of base64Forms(bytes)) literals.add(form);
      }
    }
  }
  for (const form of literals) if (form.length > 0) patterns.add(escapeRegExp(form));
  return [...patterns];
}

/** The bytes a secret is written in: UTF-8, and UTF-16 in both byte orders (Windows and Java strings). */
function encodedBytes(text: string): Buffer[] {
  const utf16 = Buffer.from(text, 'utf16le');
  return [Buffer.from(text, 'utf8'), utf16, Buffer.from(utf16).swap16()];
}

/** The secret as bytes in text form (latin1: one character a byte), to find it in a byte array. */
export function byteFormsOf(secret: string): string[] {
  const forms = new Set<string>();
  for (const text of normalForms(secret)) {
    for (const cased of [text, text.toUpperCase(), text.toLowerCase()]) {
      forms.add(Buffer.from(cased, 'utf8').toString('latin1'));
    }
  }
  return [...forms];
}

/** A literal for a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** As typed, composed (NFC) and decomposed (NFD): `é` can be one code point or two. */
function normalForms(secret: string): Set<string> {
  return new Set([secret, secret.normalize('NFC'), secret.normalize('NFD')]);
}

/** JSON's short escapes of control characters. */
const SHORT_ESCAPES: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/**
 * The text as written, or JSON-escaped once or more. Each escaping doubles the backslashes before
 * it, so a quote is `"`, `\"`, `\\\"`…: a run of backslashes is allowed wherever escaping puts one.
 * A control character may be written `\n` or `\u0001`, one outside ASCII `\u00e9` (as Python's
 * `json.dumps` does), and `/` as `\/` (as PHP's does).
 */
function throughJsonEscapes(text: string): string {
  let pattern = '';
  // UTF-16 units, not code points: `\u` escapes write a character outside the BMP as two.
  for (let index = 0; index < text.length; index += 1) {
    const character = text.charAt(index);
    const code = text.charCodeAt(index);
    const unicode = `\\\\+u${code.toString(16).padStart(4, '0')}`;
    if (character === '"' || character === '/') pattern += `\\\\*${escapeRegExp(character)}`;
    else if (character === '\\') pattern += '\\\\+';
    else if (code < 0x20)
      pattern += `(?:${unicode}|\\\\+${SHORT_ESCAPES[character] ?? unicode}|${characterPattern(code)})`;
    else if (code < 0x80) pattern += escapeRegExp(character);
    else pattern += `(?:${unicode}|${characterPattern(code)})`;
  }
  return pattern;
}

/** A character by its code, as a regular expression writes it. */
function characterPattern(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Bytes written into text: a `Buffer`'s JSON `[116,111]`, Python's `[116, 111]`, and a typed
 * array's JSON `{"0":116,"1":111}` (its index keys escaped or not).
 */
function bytesInText(bytes: Buffer): string {
  return [...bytes].map((byte) => `(?:\\\\*"\\d+\\\\*":)?${byte}`).join(',\\s*');
}

/** In a URL or a form body: `encodeURIComponent`, `+` for spaces, `URLSearchParams`, `encodeURI`. */
function urlEncodings(text: string): string[] {
  const forms: string[] = [];
  // A lone surrogate cannot be percent-encoded: no URL can carry it, so there is no form to find.
  try {
    const component = encodeURIComponent(text);
    forms.push(component, component.replaceAll('%20', '+'), encodeURI(text));
  } catch {}
  forms.push(new URLSearchParams({ value: text }).toString().slice('value='.length));
  return forms;
}

/**
 * Base64 and base64url, padded and not, of the secret on its own and inside longer data. Base64
 * writes three bytes as four characters, so where the secret starts in its group (offset 0, 1 or
 * 2) changes every character; for each offset, the characters made only of the secret's bits are
 * the same whatever surrounds it. Those are matched; a character at either edge, mixing the
 * secret's bits with its neighbours', stays.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  const whole = bytes.toString('base64');
  forms.push(whole, whole.replace(/=+$/, ''));
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    if (end - start >= SHORT_SECRET_LENGTH) forms.push(encoded.slice(start, end));
  }
  return forms.flatMap((form) => [form, form.replaceAll('+', '-').replaceAll('/', '_')]);
}
