/**
 * What scrubbing a schema needs of a `Scrubber`: declared here rather than imported, so the
 * scrubber can hand its questions to these helpers without an import cycle.
 */
export interface TextScrubber {
  text(value: string): string;
  value<T>(value: T): T;
}

/** Keywords whose value is one schema. */
const SUBSCHEMA = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
]);
/** Keywords whose value maps names (property names, definitions) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords that hold data an answer is compared with or shown: scrubbed like any value. */
const DATA = new Set(['const', 'enum', 'default', 'examples', 'title', 'description', '$comment', 'pattern']);
/**
 * Keywords of the vocabulary itself, kept verbatim: scrubbing `"type": "string"` because a PIN was
 * `string`, or `"maxLength": 5` because it was `5`, would break the schema the answer is checked with.
 */
const VOCABULARY = new Set([
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  'type',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
  'contentEncoding',
  'contentMediaType',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

/**
 * A follow-up question's JSON Schema with every secret replaced where a schema can carry one —
 * titles, descriptions, patterns, `const`, `enum`, `default`, examples, property names (in
 * `properties` and `required` alike, so they still agree) — and its vocabulary kept, so the
 * schema still reads and the answer is still checked with it. An answer is checked against what
 * was stored: a `const` built from a secret becomes `[FILTERED]`, so build such questions as a
 * choice instead (option values map back, see `scrubInputRequest`).
 */
export function scrubSchema(scrubber: TextScrubber, schema: Record<string, unknown>): Record<string, unknown> {
  return scrubSchemaNode(scrubber, schema) as Record<string, unknown>;
}

function scrubSchemaNode(scrubber: TextScrubber, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => scrubSchemaNode(scrubber, item));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).map(([keyword, value]): [string, unknown] => {
    if (VOCABULARY.has(keyword)) return [keyword, value];
    if (SUBSCHEMA.has(keyword) || SCHEMA_LISTS.has(keyword)) return [keyword, scrubSchemaNode(scrubber, value)];
    if (SCHEMA_MAPS.has(keyword) && isRecord(value)) {
      const mapped = Object.entries(value).map(([name, schema]) => [
        scrubber.text(name),
        scrubSchemaNode(scrubber, schema),
      ]);
      return [keyword, Object.fromEntries(mapped)];
    }
    if (keyword === 'required' && Array.isArray(value)) {
      return [keyword, value.map((name) => (typeof name === 'string' ? scrubber.text(name) : name))];
    }
    if (DATA.has(keyword)) return [keyword, scrubber.value(value)];
    // Anything else (`x-` extensions, keywords of a later draft) may be the tool's data: scrubbed.
    return [scrubber.text(keyword), scrubber.value(value)];
  });
  return Object.fromEntries(entries);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
