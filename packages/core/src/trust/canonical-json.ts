/**
 * RFC 8785 (JCS) canonical JSON of a value's JSON form: keys sorted, numbers and strings written
 * one way, so a value that went through a store which reorders keys (PostgreSQL `jsonb`) or
 * re-encodes it gives the same text, and the same signature. `undefined` (a value with no JSON
 * form, such as an action without params) is written `null`.
 *
 * RFC 8785 has no form for what JSON.stringify quietly rewrites (Infinity and NaN become `null`)
 * nor for a string holding a lone surrogate (half of a UTF-16 pair), which a tool result or a
 * model's text can hold. Such a value is canonicalized as any store would hand it back: its JSON
 * form, each lone surrogate read as U+FFFD. Nothing a person or a model could tell apart changes.
 * A value with no JSON form at all (a cycle, a BigInt) throws.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonical(value, []) ?? 'null';
  } catch (error) {
    if (!(error instanceof NotCanonical)) throw error;
    const stored: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
    return canonical(wellFormed(stored), []) ?? 'null';
  }
}

/** A value RFC 8785 has no form for: the caller falls back to the value's stored JSON form. */
class NotCanonical extends Error {}

/**
 * Written here rather than taken from a package: every pause signs its checkpoint and every resume
 * verifies it, and a general implementation scanning each string for lone surrogates in
 * JavaScript cost about five `JSON.stringify`s. Strings and numbers are JSON.stringify's own
 * (RFC 8785 adopts ECMAScript's serialization of both); keys sort by UTF-16 code units, as
 * `Array.prototype.sort` does. `ancestors` catches a cycle. Returns undefined for what JSON
 * leaves out (undefined, a function, a symbol).
 */
function canonical(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      if (!isWellFormed(value)) throw new NotCanonical();
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
      if (!isWellFormed(key)) throw new NotCanonical();
      text += `${first ? '' : ','}${JSON.stringify(key)}:${entry}`;
      first = false;
    }
    text += '}';
  }
  ancestors.pop();
  return text;
}

/** A copy of a JSON value whose strings (keys included) are well-formed UTF-16. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [toWellFormed(key), wellFormed(entry)]));
  }
  return value;
}

/** ES2024's string methods, native on Node 20 but outside the ES2023 library this repository types against. */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

const isWellFormed = (text: string) => (text as unknown as WellFormedString).isWellFormed();
const toWellFormed = (text: string) => (text as unknown as WellFormedString).toWellFormed();
