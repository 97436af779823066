/** How much of a value an error message quotes. */
const QUOTED_LENGTH = 80;

/**
 * A value as an error message quotes it: its JSON, cut to a short prefix. A message must never
 * repeat what a caller sent in full (a 10 MB answer would make a 10 MB error, log line and
 * HTTP response).
 */
export function quoteValue(value: unknown, limit = QUOTED_LENGTH): string {
  let written: string;
  try {
    written = JSON.stringify(value) ?? String(value);
  } catch {
    written = Object.prototype.toString.call(value);
  }
  return written.length <= limit ? written : `${written.slice(0, limit)}… (${written.length} characters)`;
}
