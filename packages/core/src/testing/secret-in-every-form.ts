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
  const { lowered, decoded } = decodedText(text);
  const variants = [secret.normalize('NFC'), secret.normalize('NFD')];
  const textual: Array<[string, string]> = variants.flatMap((variant): Array<[string, string]> => {
    const escaped = JSON.stringify(variant).slice(1, -1);
    return [
      ['text', variant],
      ['json', escaped],
      ['json', JSON.stringify(escaped).slice(1, -1)],
      ['json', escaped.replace(/[\u0080-\uffff]/g, (character) => pythonEscape(character))],
      ['url', encodeURIComponent(variant)],
      ['url', new URLSearchParams({ value: variant }).toString().slice('value='.length)],
    ];
  });
  for (const name of formsHeld(
    lowered,
    textual.map(([name, form]) => [name, form.toLowerCase()]),
  ))
    found.add(name);
  // Its UTF-8 and UTF-16 bytes (either order), in any case: a tool may encode the secret upper-cased.
  const secretBytes = variants.flatMap((variant) =>
    [Buffer.from(variant, 'utf8'), Buffer.from(variant, 'utf16le'), Buffer.from(variant, 'utf16le').swap16()].map(
      (bytes) => bytes.toString('latin1').toLowerCase(),
    ),
  );
  for (const [name, runs] of decoded) {
    if (
      formsHeld(
        runs,
        secretBytes.map((bytes) => [name, bytes]),
      ).size > 0
    )
      found.add(name);
  }
  return [...found].sort();
}

/**
 * Between two decoded runs: above latin1, so no window of a secret's bytes (latin1, a byte a
 * character) spans two runs, and the runs can be searched as one string.
 */
const RUN_SEPARATOR = '\uffff';

/** Texts decoded lately: a canary test looks for several secrets and texts in each of its sinks. */
const decodedTexts = new Map<string, { lowered: string; decoded: Map<string, string> }>();
const DECODED_TEXTS_KEPT = 16;

/**
 * A text lower-cased, and every run of it decoded (`decodedRuns`, of the text and of it with its
 * line breaks taken out, so wrapped base64 is read joined up), lower-cased and joined by form. It
 * does not depend on the secret, so it is decoded once for all the secrets looked for in it.
 */
function decodedText(text: string): { lowered: string; decoded: Map<string, string> } {
  const cached = decodedTexts.get(text);
  if (cached !== undefined) return cached;
  // Base64 wrapped into lines (MIME, PEM), its line breaks JSON-escaped or not, is read joined up too.
  const unwrapped = text.replace(/(?:\\+r)?\\+n|\r?\n/g, '');
  // A set: most runs decode the same in both, and a record repeated holds the same runs again.
  const byForm = new Map<string, Set<string>>();
  for (const [name, run] of [...decodedRuns(text), ...(unwrapped === text ? [] : decodedRuns(unwrapped))]) {
    const runs = byForm.get(name) ?? new Set<string>();
    runs.add(run.toLowerCase());
    byForm.set(name, runs);
  }
  const entry = {
    lowered: text.toLowerCase(),
    decoded: new Map([...byForm].map(([name, runs]) => [name, [...runs].join(RUN_SEPARATOR)])),
  };
  if (decodedTexts.size >= DECODED_TEXTS_KEPT) decodedTexts.delete(decodedTexts.keys().next().value as string);
  decodedTexts.set(text, entry);
  return entry;
}

/**
 * The names of the needles `haystack` holds: a needle of at most eight characters whole, a longer
 * one by any eight of its characters in a row. One pass over the haystack for every window of
 * every needle (a canary test's sinks run to megabytes, and a secret has dozens of windows).
 */
function formsHeld(haystack: string, needles: ReadonlyArray<readonly [string, string]>): Set<string> {
  const held = new Set<string>();
  const windows = new Map<string, Set<string>>();
  for (const [name, needle] of needles) {
    if (needle.length <= WINDOW) {
      if (haystack.includes(needle)) held.add(name);
      continue;
    }
    for (let start = 0; start + WINDOW <= needle.length; start += 1) {
      const window = needle.slice(start, start + WINDOW);
      const names = windows.get(window) ?? new Set<string>();
      names.add(name);
      windows.set(window, names);
    }
  }
  const names = new Set(needles.map(([name]) => name));
  if (windows.size === 0 || held.size === names.size) return held;
  for (let start = 0; start + WINDOW <= haystack.length; start += 1) {
    const found = windows.get(haystack.slice(start, start + WINDOW));
    if (found === undefined) continue;
    for (const name of found) held.add(name);
    if (held.size === names.size) break;
  }
  return held;
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
