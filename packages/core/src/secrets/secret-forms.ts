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
 * Every written form of a secret that a tool produces in practice, worked out once when the secret
 * is answered so that scrubbing stays one pass over the text. Matching is case-insensitive, which
 * also covers upper- and lower-case hex and percent-escapes. A form that only appears in part
 * (base64 of text that starts mid-group) is represented by the characters the secret alone decides.
 */
export function textFormsOf(secret: string): string[] {
  const forms = new Set<string>();
  for (const text of normalForms(secret)) {
    forms.add(text).add(text.toUpperCase()).add(text.toLowerCase());
    for (const form of jsonEscapings(text)) forms.add(form);
    for (const form of urlEncodings(text)) forms.add(form);
    const bytes = Buffer.from(text, 'utf8');
    forms.add(bytes.toString('hex'));
    // A Buffer or byte array written into text: JSON's `[116,111]`, Python's `[116, 111]`.
    forms.add([...bytes].join(',')).add([...bytes].join(', '));
    for (const form of base64Forms(bytes)) forms.add(form);
  }
  return [...forms].filter((form) => form.length > 0);
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

/** As typed, composed (NFC) and decomposed (NFD): `é` can be one code point or two. */
function normalForms(secret: string): Set<string> {
  return new Set([secret, secret.normalize('NFC'), secret.normalize('NFD')]);
}

/** Inside a JSON string: escaped once, escaped with `\/` or ASCII-only `\u` escapes, and escaped twice. */
function jsonEscapings(text: string): string[] {
  const once = JSON.stringify(text).slice(1, -1);
  const asciiOnly = once.replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return [once, asciiOnly, once.replaceAll('/', '\\/'), JSON.stringify(once).slice(1, -1)];
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
