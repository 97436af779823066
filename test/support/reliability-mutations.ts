import fc from 'fast-check';
import { HOSTILE_TURN, VALID_ANSWERS } from './reliability-hostile-desk.js';

/** A location inside a JSON value: object keys and array indexes from the root. */
export type JsonPath = (string | number)[];

/** One change a hostile client could make to a stored checkpoint. */
export type Mutation =
  | { kind: 'replace'; path: JsonPath; value: unknown }
  | { kind: 'delete'; path: JsonPath }
  | { kind: 'insert'; path: JsonPath; key: string; value: unknown }
  | { kind: 'duplicate'; path: JsonPath };

/** Every path of `value` below its root, interior nodes included, in document order. */
export function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** The value at `path`, or undefined when the path does not lead anywhere. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** A copy of `root` with the mutation applied; a mutation whose path no longer exists changes nothing. */
export function applyMutation(root: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(root);
  const parentPath = mutation.kind === 'insert' ? mutation.path : mutation.path.slice(0, -1);
  const parent = parentPath.length === 0 ? copy : valueAt(copy, parentPath);
  if (typeof parent !== 'object' || parent === null) return copy;
  const container = parent as Record<string | number, unknown>;
  const key = mutation.path.at(-1) as string | number;
  switch (mutation.kind) {
    case 'replace':
      container[key] = mutation.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete container[key];
      break;
    case 'insert':
      if (Array.isArray(parent)) parent.push(mutation.value);
      // defineProperty, not assignment: a key named __proto__ must become an own key, as JSON.parse makes it.
      else
        Object.defineProperty(parent, mutation.key, {
          value: mutation.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      break;
    case 'duplicate':
      if (Array.isArray(parent)) parent.splice(Number(key), 0, structuredClone(parent[Number(key)]));
      break;
  }
  return copy;
}

const callIds = [...HOSTILE_TURN.map((call) => call.id), 'call_unknown'];

/** Values that break parsers: wrong types, edge numbers, ids of other calls, prototype keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -0,
      -1,
      0,
      1,
      2,
      1.5,
      1e21,
      '',
      ' ',
      '[FILTERED]',
      '__proto__',
      'constructor',
      'confirm',
      'choice',
      'secret',
      'text',
      'handle',
      'support',
      'scripted-1',
      'gen_00000000000000000000000000000000',
      true,
      false,
      [],
      {},
      [null],
      JSON.parse('{"__proto__":{"polluted":true}}'),
      ...callIds,
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** A mutation at one of `paths` of the base checkpoint. */
export function mutationOf(paths: JsonPath[]): fc.Arbitrary<Mutation> {
  const path = fc.constantFrom(...paths);
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), path, value: hostileValue }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), path }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('insert' as const),
        path: fc.constantFrom<JsonPath>([], ...paths),
        key: fc.oneof(
          fc.constantFrom('__proto__', 'constructor', 'signature', 'call_unknown', ...callIds),
          fc.string({ maxLength: 8 }),
        ),
        value: hostileValue,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), path }) },
  );
}

/** A checkpoint as a hostile client may send it: the base, changed in 0–3 places, or not an object at all. */
export function hostileCheckpoint(base: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(base);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(base) },
    {
      weight: 8,
      arbitrary: fc
        .array(mutationOf(paths), { minLength: 1, maxLength: 3 })
        .map((mutations) => mutations.reduce<unknown>(applyMutation, base)),
    },
    { weight: 1, arbitrary: hostileValue },
  );
}

const answerValue = (callId: keyof typeof VALID_ANSWERS): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(VALID_ANSWERS[callId]) },
    { weight: 1, arbitrary: fc.constant(false) },
    { weight: 2, arbitrary: hostileValue },
  );

/** An answer map: mostly the right answers, some wrong, missing or extra, or not a map at all. */
export const hostileAnswers: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(
        fc.record(
          Object.fromEntries(
            (Object.keys(VALID_ANSWERS) as (keyof typeof VALID_ANSWERS)[]).map((callId) => [
              callId,
              answerValue(callId),
            ]),
          ),
          { requiredKeys: [] },
        ),
        fc.oneof(
          { weight: 6, arbitrary: fc.constant({}) },
          {
            weight: 1,
            arbitrary: fc.dictionary(fc.constantFrom('call_lookup', 'call_unknown', '__proto__', ''), hostileValue),
          },
        ),
        fc.boolean(),
      )
      // Mostly every call answered: a missing answer is one refusal among many to reach.
      .map(([answers, extra, complete]) => ({ ...(complete ? VALID_ANSWERS : {}), ...answers, ...extra })),
  },
  { weight: 1, arbitrary: hostileValue },
);
