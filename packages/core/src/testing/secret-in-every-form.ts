/**
 * What a careless tool returns after it was given a secret: the secret as typed, case-folded, in
 * NFD, JSON-escaped (once, twice, ASCII-only), URL-encoded (a query and a form body), as hex and
 * base64 (standard, URL-safe, and inside longer data at each of base64's three offsets), base64
 * and capital hex of it upper- or lower-cased, base64 wrapped as MIME (76 columns, CRLF) and PEM
 * (64, LF) write it, base64 of its UTF-16LE bytes, as a `Buffer`, a `Uint8Array` and an array of
 * byte values, and split over two adjacent fields and over two strings with a number between
 * (written into one text, those are no longer side by side: leave the `split_` ones out there). A canary test
 * returns this from a tool and then looks for the secret everywhere with `secretFormsIn`.
 *
 * @example
 *   run: (_input, ctx) => (ctx.answer === undefined ? InputRequest.secret('Token?') : secretInEveryForm(String(ctx.answer)))
 */
export function secretInEveryForm(secret: string): Record<string, unknown> {
  const bytes = Buffer.from(secret, 'utf8');
  const half = Math.floor(secret.length / 2);
  return {
    as_typed: `token ${secret} accepted`,
    upper_case: secret.toUpperCase(),
    lower_case: secret.toLowerCase(),
    nfd: secret.normalize('NFD'),
    json: JSON.stringify({ token: secret }),
    json_twice: JSON.stringify({ body: JSON.stringify({ token: secret }) }),
    json_ascii: JSON.stringify(secret).replace(/[\u0080-\uffff]/g, (character) => pythonEscape(character)),
    url_query: `https://deploy.example/run?token=${encodeURIComponent(secret)}&dry=0`,
    form_body: new URLSearchParams({ token: secret, dry: '0' }).toString(),
    hex: `0x${bytes.toString('hex')}`,
    hex_upper: bytes.toString('hex').toUpperCase(),
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    // 'deploy:' is 7 bytes and 'k=' 2: the secret starts at offsets 1 and 2 of a base64 group.
    basic_auth: `Basic ${Buffer.from(`deploy:${secret}`).toString('base64')}`,
    base64_offset_2: Buffer.from(`k=${secret};`).toString('base64'),
    buffer: Buffer.from(bytes),
    uint8_array: new Uint8Array(bytes),
    byte_values: [...bytes],
    base64_upper_case: Buffer.from(secret.toUpperCase()).toString('base64'),
    base64_lower_case: Buffer.from(secret.toLowerCase()).toString('base64'),
    hex_of_upper_case: Buffer.from(secret.toUpperCase()).toString('hex').toUpperCase(),
    // 54 and 45 bytes before it: its base64 starts 4 characters before the MIME and PEM line ends.
    base64_mime: wrappedLines(
      Buffer.from(`${'m'.repeat(54)}${secret}${'m'.repeat(60)}`).toString('base64'),
      76,
      '\r\n',
    ),
    base64_pem: `-----BEGIN DATA-----\n${wrappedLines(Buffer.from(`${'p'.repeat(45)}${secret}`).toString('base64'), 64, '\n')}\n-----END DATA-----`,
    base64_utf16le: Buffer.from(secret, 'utf16le').toString('base64'),
    split_start: secret.slice(0, half),
    split_end: secret.slice(half),
    split_around_number: [secret.slice(0, half), 7, secret.slice(half)],
  };
}

/** Base64 broken into lines of `width` characters. */
function wrappedLines(base64: string, width: number, lineBreak: string): string {
  const lines: string[] = [];
  for (let start = 0; start < base64.length; start += width) lines.push(base64.slice(start, start + width));
  return lines.join(lineBreak);
}

/** `\u00e9`, as Python's `json.dumps` writes a character outside ASCII. */
function pythonEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Eight characters (or bytes) of a secret in a row count as a leak; fewer could be chance. */
const WINDOW = 8;

/**
 * Which forms of `secret` a text holds: `text` (any case, NFC or NFD), `json`, `url`, `hex`,
 * `base64` or `bytes`. Found by decoding rather than by encoding the secret the scrubber's way,
 * so a form the scrubber misses is not missed here too: every base64 and hex run of the text
 * (base64 wrapped into lines joined up first) is decoded at each alignment and every list of byte
 * values read back, and any eight characters or bytes of the secret in a row count, in any case,
 * in UTF-8 or UTF-16.
 */
export function secretFormsIn(text: string, secret: string): string[] {
  const found = new Set<string>();
  const lowered = text.toLowerCase();
  const variants = [secret.normalize('NFC'), secret.normalize('NFD')];
  for (const variant of variants) {
    const escaped = JSON.stringify(variant).slice(1, -1);
    const textual: Array<[string, string]> = [
      ['text', variant],
      ['json', escaped],
      ['json', JSON.stringify(escaped).slice(1, -1)],
      ['json', escaped.replace(/[\u0080-\uffff]/g, (character) => pythonEscape(character))],
      ['url', encodeURIComponent(variant)],
      ['url', new URLSearchParams({ value: variant }).toString().slice('value='.length)],
    ];
    for (const [name, form] of textual) if (holdsWindow(lowered, form.toLowerCase())) found.add(name);
  }
  // Its UTF-8 and UTF-16 bytes (either order), in any case: a tool may encode the secret upper-cased.
  const secretBytes = variants.flatMap((variant) =>
    [Buffer.from(variant, 'utf8'), Buffer.from(variant, 'utf16le'), Buffer.from(variant, 'utf16le').swap16()].map(
      (bytes) => bytes.toString('latin1').toLowerCase(),
    ),
  );
  // Base64 wrapped into lines (MIME, PEM), its line breaks JSON-escaped or not, is read joined up too.
  const unwrapped = text.replace(/(?:\\+r)?\\+n|\r?\n/g, '');
  for (const [name, decoded] of [...decodedRuns(text), ...decodedRuns(unwrapped)]) {
    const lowered = decoded.toLowerCase();
    if (secretBytes.some((bytes) => holdsWindow(lowered, bytes))) found.add(name);
  }
  return [...found].sort();
}

function holdsWindow(haystack: string, needle: string): boolean {
  if (needle.length <= WINDOW) return haystack.includes(needle);
  for (let start = 0; start + WINDOW <= needle.length; start += 1) {
    if (haystack.includes(needle.slice(start, start + WINDOW))) return true;
  }
  return false;
}

/** Every run of the text that may be base64, hex or byte values, decoded as latin1 (a byte a character). */
function* decodedRuns(text: string): Generator<[string, string]> {
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    const standard = run.replaceAll('-', '+').replaceAll('_', '/');
    for (let shift = 0; shift < 4; shift += 1) {
      const aligned = standard.slice(shift);
      yield [
        'base64',
        Buffer.from(aligned.slice(0, aligned.length - (aligned.length % 4)), 'base64').toString('latin1'),
      ];
    }
  }
  for (const run of text.match(/[0-9a-fA-F]{8,}/g) ?? []) {
    for (const shift of [0, 1]) yield ['hex', Buffer.from(run.slice(shift), 'hex').toString('latin1')];
  }
  // `[116,111]`, `[116, 111]`, and a typed array's `{"0":116,"1":111}` (escaped or not).
  const withoutIndexKeys = text.replace(/\\*"\d+\\*"\s*:\s*/g, '');
  for (const run of withoutIndexKeys.match(/\d{1,3}(?:\s*,\s*\d{1,3}){3,}/g) ?? []) {
    const values = run.split(',').map((value) => Number(value.trim()));
    if (values.every((value) => value <= 255)) yield ['bytes', Buffer.from(values).toString('latin1')];
  }
}
