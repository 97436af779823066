/**
 * Helpers for testing a hand-written shape check (one that lets well-formed input skip zod)
 * against the zod schema it stands in for: mutate each recorded value one field at a time with
 * hostile values, and check that the plain check never accepts what the schema refuses.
 */

/**
 * Values a client, a bad store or a compatible server could put anywhere: wrong types, edge
 * numbers, odd objects. All of them can come out of `JSON.parse` or a JSON column, except a Date.
 */
export const hostileValues: readonly unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  '',
  'x',
  true,
  false,
  [],
  [1],
  [''],
  ['a', 2],
  [{}],
  {},
  { a: 1 },
  { constructor: 1 },
  JSON.parse('{"__proto__": {"x": 1}}'),
  Object.create(null),
  new Date(0),
];

/** A copy of `target` with `key` set to `value`, or removed when `value` is undefined. */
export function withField(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...target };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/**
 * Runs both checks over every candidate and throws on the first the plain check accepts and the
 * schema refuses. Returns how many each side accepted and refused, so a test can show the
 * mutations reached both verdicts.
 */
export function comparePlainCheck(
  candidates: readonly unknown[],
  schemaAccepts: (candidate: unknown) => boolean,
  plainAccepts: (candidate: unknown) => boolean,
  explain: (candidate: unknown) => string = (candidate) => JSON.stringify(candidate),
): { accepted: number; refused: number } {
  let accepted = 0;
  let refused = 0;
  for (const candidate of candidates) {
    const schemaVerdict = schemaAccepts(candidate);
    const plainVerdict = plainAccepts(candidate);
    if (plainVerdict && !schemaVerdict) throw new Error(`accepted what the schema refuses: ${explain(candidate)}`);
    if (plainVerdict) accepted += 1;
    if (!schemaVerdict) refused += 1;
  }
  return { accepted, refused };
}
