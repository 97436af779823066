/**
 * A tool's arguments or result as a span attribute value: strings as they are, anything else
 * as JSON (what the GenAI conventions ask for `gen_ai.tool.call.arguments` / `.result`).
 * A value JSON cannot write (a cycle, a BigInt) becomes a placeholder rather than failing the
 * generation it only describes.
 */
export function toContentAttribute(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[unserializable]';
  }
}
