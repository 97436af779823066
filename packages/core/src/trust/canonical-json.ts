import canonicalize from 'canonicalize';

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
    return canonicalize(value) ?? 'null';
  } catch {
    const stored: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
    return canonicalize(wellFormed(stored)) ?? 'null';
  }
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

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function toWellFormed(text: string): string {
  return text.replace(loneSurrogate, '\uFFFD');
}
