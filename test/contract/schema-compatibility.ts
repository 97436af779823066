// Whether a message's JSON Schema is backward compatible with a frozen one, as docs/wire-contract.md#versions
// defines it: everything the frozen schema described still reads the same. Written for the JSON
// Schema zod generates (type, const, enum, properties, required, additionalProperties, items,
// anyOf, $ref), and conservative past it: any other keyword the current schema holds must be as it was.

type JsonSchema = boolean | { [keyword: string]: unknown };

/** A schema and the `components/schemas` its `$ref`s point into. */
export interface SchemaDocument {
  $ref: string;
  components: { schemas: Record<string, JsonSchema> };
}

/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$comment', 'id', 'deprecated']);
/** Keywords compared by their meaning below; any other must not change. */
const STRUCTURE = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'oneOf',
]);

/**
 * How `current` breaks readers of `frozen`, one line each (none: compatible). Breaking: a field
 * removed; a required field made optional, or a new one required; a type, a value set or an
 * alternative narrowed (something `frozen` took that `current` refuses); a constraint added or
 * changed. Compatible: a new optional field, a wider type, a new enum value or alternative.
 */
export function incompatibilities(frozen: SchemaDocument, current: SchemaDocument): string[] {
  const problems: string[] = [];
  const assumed = new Set<string>();
  const resolve = (schema: JsonSchema, side: SchemaDocument): { schema: JsonSchema; ref?: string } => {
    let ref: string | undefined;
    let resolved = schema;
    for (;;) {
      if (typeof resolved !== 'object') break;
      // `{ allOf: [one], description }` (how zod describes a field that refers to a named schema) is that one.
      const only = soleAllOf(resolved);
      if (only !== undefined) {
        resolved = only;
        continue;
      }
      if (typeof resolved['$ref'] !== 'string') break;
      ref = resolved['$ref'] as string;
      const target = side.components.schemas[ref.replace('#/components/schemas/', '')];
      if (target === undefined) throw new Error(`unresolved ${ref}`);
      resolved = target;
    }
    return ref === undefined ? { schema: resolved } : { schema: resolved, ref };
  };

  const compare = (oldSchema: JsonSchema, newSchema: JsonSchema, path: string, out: string[]): void => {
    const before = resolve(oldSchema, frozen);
    const after = resolve(newSchema, current);
    // A recursive schema (JSON values, nested checkpoints): a pair met again is taken as compatible here.
    if (before.ref !== undefined && after.ref !== undefined) {
      const pair = `${before.ref}|${after.ref}`;
      if (assumed.has(pair)) return;
      assumed.add(pair);
    }
    const old = before.schema;
    const now = after.schema;
    if (now === true || old === false || isUnconstrained(now)) return;
    if (now === false) {
      out.push(`${path}: takes nothing now`);
      return;
    }
    if (old === true) {
      out.push(`${path}: took any value, now only some`);
      return;
    }
    const oldBranches = alternatives(old);
    if (oldBranches !== undefined) {
      for (const [index, branch] of oldBranches.entries()) compare(branch, now, `${path}|${index}`, out);
      return;
    }
    const newBranches = alternatives(now);
    if (newBranches !== undefined) {
      // Taken by one of the alternatives: else told by the one that came nearest.
      let nearest: { problems: string[]; score: number } | undefined;
      for (const branch of newBranches) {
        const trial: string[] = [];
        const kept = new Set(assumed);
        compare(old, branch, path, trial);
        if (trial.length === 0) return;
        // A failed trial assumed nothing: what it took as compatible on the way may not be.
        for (const pair of assumed) if (!kept.has(pair)) assumed.delete(pair);
        // The nearest: of a type the frozen schema had, then with the fewest problems.
        const resolved = resolve(branch, current).schema;
        const sameType = typeof resolved === 'object' && typesOf(resolved).some((type) => typesOf(old).includes(type));
        const score = trial.length + (sameType ? 0 : 1_000);
        if (nearest === undefined || score < nearest.score) nearest = { problems: trial, score };
      }
      out.push(...(nearest?.problems ?? [`${path}: takes nothing now`]));
      return;
    }
    if (isUnconstrained(old)) {
      out.push(`${path}: took any value, now only some`);
      return;
    }
    compareTypes(old, now, path, out);
    compareValues(old, now, path, out);
    if (typesOf(old).includes('object')) compareObjects(old, now, path, out);
    if (typesOf(old).includes('array') && old['items'] !== undefined) {
      compare(old['items'] as JsonSchema, (now['items'] ?? true) as JsonSchema, `${path}[]`, out);
    }
    for (const keyword of Object.keys(now)) {
      if (ANNOTATIONS.has(keyword) || STRUCTURE.has(keyword)) continue;
      if (JSON.stringify(now[keyword]) !== JSON.stringify(old[keyword])) {
        out.push(`${path}: ${keyword} added or changed`);
      }
    }
  };

  const compareObjects = (
    old: Record<string, unknown>,
    now: Record<string, unknown>,
    path: string,
    out: string[],
  ): void => {
    const oldProperties = (old['properties'] ?? {}) as Record<string, JsonSchema>;
    const newProperties = (now['properties'] ?? {}) as Record<string, JsonSchema>;
    const oldRequired = new Set((old['required'] ?? []) as string[]);
    const newRequired = new Set((now['required'] ?? []) as string[]);
    for (const [name, schema] of Object.entries(oldProperties)) {
      const next = newProperties[name];
      if (next === undefined) {
        out.push(`${path}.${name}: removed`);
        continue;
      }
      compare(schema, next, `${path}.${name}`, out);
      if (oldRequired.has(name) && !newRequired.has(name)) out.push(`${path}.${name}: no longer required`);
    }
    for (const name of newRequired) {
      if (!oldRequired.has(name)) out.push(`${path}.${name}: newly required`);
    }
    // Past the named fields: a map's values (records), or any field at all (open objects).
    const oldRest = (old['additionalProperties'] ?? true) as JsonSchema;
    const newRest = (now['additionalProperties'] ?? true) as JsonSchema;
    if (oldRest !== false) compare(oldRest, newRest, `${path}.*`, out);
  };

  compare({ $ref: frozen.$ref }, { $ref: current.$ref }, '', problems);
  return problems;
}

function soleAllOf(schema: { [keyword: string]: unknown }): JsonSchema | undefined {
  const all = schema['allOf'];
  if (!Array.isArray(all) || all.length !== 1) return undefined;
  const others = Object.keys(schema).filter((key) => key !== 'allOf' && !ANNOTATIONS.has(key));
  return others.length === 0 ? (all[0] as JsonSchema) : undefined;
}

function isUnconstrained(schema: JsonSchema): boolean {
  return schema === true || (typeof schema === 'object' && Object.keys(schema).every((key) => ANNOTATIONS.has(key)));
}

function alternatives(schema: Record<string, unknown>): JsonSchema[] | undefined {
  return (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
}

/** The JSON types a schema takes: `type`, or those of its `const` / `enum` values. */
function typesOf(schema: Record<string, unknown>): string[] {
  if (schema['type'] !== undefined) return [schema['type']].flat() as string[];
  const values = valuesOf(schema);
  return values === undefined ? [] : [...new Set(values.map(jsonTypeOf))];
}

function valuesOf(schema: Record<string, unknown>): unknown[] | undefined {
  if ('const' in schema) return [schema['const']];
  return schema['enum'] as unknown[] | undefined;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function compareTypes(old: Record<string, unknown>, now: Record<string, unknown>, path: string, out: string[]): void {
  if (now['type'] === undefined) return;
  const allowed = new Set(typesOf(now));
  for (const type of typesOf(old)) {
    if (!allowed.has(type) && !(type === 'integer' && allowed.has('number'))) {
      out.push(`${path}: was ${type}, now ${[...allowed].join(' or ')}`);
    }
  }
}

function compareValues(old: Record<string, unknown>, now: Record<string, unknown>, path: string, out: string[]): void {
  const allowed = valuesOf(now);
  if (allowed === undefined) return;
  const before = valuesOf(old);
  if (before === undefined) {
    out.push(`${path}: took any ${typesOf(old).join(' or ')}, now only ${JSON.stringify(allowed)}`);
    return;
  }
  const kept = new Set(allowed.map((value) => JSON.stringify(value)));
  for (const value of before) {
    if (!kept.has(JSON.stringify(value))) out.push(`${path}: no longer takes ${JSON.stringify(value)}`);
  }
}

/** The standalone schema of one message of the document: its payload and every schema it refers to. */
export function messageSchema(
  document: { components: { schemas: Record<string, JsonSchema> } },
  name: string,
): SchemaDocument {
  const schemas: Record<string, JsonSchema> = {};
  const visit = (id: string) => {
    if (schemas[id] !== undefined) return;
    const schema = document.components.schemas[id];
    if (schema === undefined) throw new Error(`no schema ${id}`);
    schemas[id] = schema;
    for (const match of JSON.stringify(schema).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      visit(match[1] as string);
  };
  visit(name);
  return { $ref: `#/components/schemas/${name}`, components: { schemas } };
}
