/**
 * RFC 8785 (JCS) canonical JSON of a value's JSON form: keys sorted, numbers and strings written
 * one way, so a value that went through a store which reorders keys (PostgreSQL `jsonb`) or
 * re-encodes it gives the same text, and the same signature. `undefined` (a value with no JSON
 * form, such as an action without params) is written `null`.
 *
 * Two things RFC 8785 has no form for are written faithfully, never folded into another value: a
 * non-finite number is `null`, as JSON.stringify stores it; a string holding a lone surrogate
 * (half of a UTF-16 pair: a tool that cut an emoji in two with `slice`) keeps it as the escape
 * JSON.stringify writes (`"\ud800"`), which every JSON reader gives back as that surrogate. So a
 * signed text still tells a lone surrogate from U+FFFD and from any other one: swapping them
 * breaks the signature. (RFC 8785 refuses such strings; refusing would fail the pause of every
 * generation whose tool returned one.) A store that rewrites them (a UTF-8 column turns each into
 * U+FFFD) hands back another value, refused as any alteration is. A value with no JSON form at
 * all (a cycle, a BigInt) throws.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonical(value, []) ?? 'null';
  } catch (error) {
    if (!(error instanceof NotCanonical)) throw error;
    return canonical(JSON.parse(JSON.stringify(value) ?? 'null'), []) ?? 'null';
  }
}

/** A non-finite number: the caller falls back to the value's stored JSON form. */
class NotCanonical extends Error {}

/**
 * Written here rather than taken from a package: every pause signs its checkpoint and every resume
 * verifies it, and a general implementation scanning each string for lone surrogates in
 * JavaScript cost about five `JSON.stringify`s. Strings and numbers are JSON.stringify's own
 * (RFC 8785 adopts ECMAScript's serialization of both, and ES2019's escapes lone surrogates);
 * keys sort by UTF-16 code units, as
 * `Array.prototype.sort` does. `ancestors` catches a cycle. Returns undefined for what JSON
 * leaves out (undefined, a function, a symbol).
 */
function canonical(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new NotCanonical();
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      throw new TypeError('A BigInt has no JSON form');
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (ancestors.includes(value)) throw new TypeError('A value that contains itself has no JSON form');
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    ancestors.push(value);
    const text = canonical(toJSON.call(value), ancestors);
    ancestors.pop();
    return text;
  }
  ancestors.push(value);
  let text: string;
  if (Array.isArray(value)) {
    text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      text += canonical(value[index], ancestors) ?? 'null';
    }
    text += ']';
  } else {
    const record = value as Record<string, unknown>;
    text = '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const entry = canonical(record[key], ancestors);
      if (entry === undefined) continue;
      text += `${first ? '' : ','}${JSON.stringify(key)}:${entry}`;
      first = false;
    }
    text += '}';
  }
  ancestors.pop();
  return text;
}
