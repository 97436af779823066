import canonicalize from 'canonicalize';

/**
 * RFC 8785 (JCS) canonical JSON of a value: keys sorted, numbers and strings written one way, so
 * a value that went through a store which reorders keys (PostgreSQL `jsonb`) or re-encodes it
 * gives the same text, and the same signature. `undefined` (a value with no JSON form, such as an
 * action without params) is written `null`.
 *
 * RFC 8785 has no form for a string holding a lone surrogate (half of a UTF-16 pair), which a
 * tool result or a model's text can hold; such strings are signed as their well-formed form
 * (each lone surrogate read as U+FFFD), which changes nothing a person or a model could tell apart.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalize(value) ?? 'null';
  } catch (error) {
    if (!(error instanceof Error) || !/lone surrogate/i.test(error.message)) throw error;
    return canonicalize(wellFormed(value)) ?? 'null';
  }
}

/** A copy of a JSON value whose strings (keys included) are well-formed UTF-16. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return toWellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null) {
    const source =
      typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
    if (typeof source !== 'object' || source === null) return wellFormed(source);
    return Object.fromEntries(Object.entries(source).map(([key, entry]) => [toWellFormed(key), wellFormed(entry)]));
  }
  return value;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function toWellFormed(text: string): string {
  return text.replace(loneSurrogate, '\uFFFD');
}
