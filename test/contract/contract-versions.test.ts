import {
  deadLetterSchema,
  inputRequestSchema,
  jobSchema,
  pendingRecordSchema,
  sealable,
} from '@interlude/core/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asyncApiDocument, CONTRACT_VERSION } from './asyncapi-document.js';
import { frozenVersions, majorOf, messageNames } from './frozen-versions.js';
import { incompatibilities, messageSchema, type SchemaDocument } from './schema-compatibility.js';

// The document as committed and read: through JSON, so fields left undefined are not part of it.
const document = JSON.parse(JSON.stringify(asyncApiDocument())) as Record<string, unknown>;
const current = (name: string) => messageSchema(document as never, name);
const frozen = frozenVersions();
const major = majorOf(CONTRACT_VERSION);
const HOW =
  'A change that breaks readers of a frozen version needs a new major CONTRACT_VERSION (test/contract/asyncapi-document.ts) and a new `version` of the record, then `npx tsx test/contract/write-asyncapi.ts` to freeze the new major (docs/wire-contract.md#versions).';

describe('the wire contract’s versions (test/contract/versions/)', () => {
  it('the current major version has every message of the document frozen', () => {
    const messages = frozen.get(major);
    expect(messages, `no frozen version ${major}: run npx tsx test/contract/write-asyncapi.ts`).toBeDefined();
    expect(
      messageNames(document).filter((name) => !messages?.has(name)),
      'messages new to this version: freeze them with npx tsx test/contract/write-asyncapi.ts',
    ).toEqual([]);
  });

  it('every message is backward compatible with its frozen schema of this major version', () => {
    const problems: string[] = [];
    for (const [name, schema] of frozen.get(major) ?? []) {
      if (!messageNames(document).includes(name)) problems.push(`${name}: removed`);
      else problems.push(...incompatibilities(schema, current(name)).map((problem) => `${name}${problem}`));
    }
    expect(problems, HOW).toEqual([]);
  });

  it('a record that changed incompatibly since an older major version carries another `version`', () => {
    const problems: string[] = [];
    for (const [older, messages] of frozen) {
      if (older === major) continue;
      for (const [name, schema] of messages) {
        if (!messageNames(document).includes(name)) continue;
        const now = current(name);
        if (incompatibilities(schema, now).length > 0 && recordVersion(schema) === recordVersion(now)) {
          problems.push(
            `${name}: changed since contract version ${older} and still says version ${recordVersion(now)}`,
          );
        }
      }
    }
    expect(problems, HOW).toEqual([]);
  });
});

describe('what counts as a breaking change', () => {
  const asDocument = (schema: z.ZodType): SchemaDocument => {
    const converted = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
    const {
      definitions,
      $schema: _draft,
      ...rest
    } = JSON.parse(JSON.stringify(converted).replaceAll('"#/definitions/', '"#/components/schemas/')) as {
      definitions?: Record<string, boolean | Record<string, unknown>>;
      $schema?: string;
    };
    return { $ref: '#/components/schemas/Root', components: { schemas: { ...definitions, Root: rest } } };
  };
  const withoutIds = (schema: z.ZodType) => asDocument(z.object({ root: schema }));

  it('the schemas as they are: compatible with themselves', () => {
    for (const name of messageNames(document)) expect(incompatibilities(current(name), current(name))).toEqual([]);
  });

  it('a field removed, retyped, newly required, narrowed or constrained breaks; an optional field or a wider type does not', () => {
    const job = jobSchema;
    const before = withoutIds(job);
    expect(incompatibilities(before, withoutIds(job.omit({ traceparent: true })))).toEqual([
      '.root.traceparent: removed',
    ]);
    expect(incompatibilities(before, withoutIds(job.extend({ generation_id: z.number() })))).toEqual([
      '.root.generation_id: was string, now number',
    ]);
    expect(incompatibilities(before, withoutIds(job.extend({ priority: z.number() })))).toEqual([
      '.root.priority: newly required',
    ]);
    expect(incompatibilities(before, withoutIds(job.extend({ kind: z.enum(['resume']) })))).toEqual([
      '.root.kind: no longer takes "generate"',
    ]);
    expect(incompatibilities(before, withoutIds(job.extend({ id: z.string().max(64) })))).toEqual([
      '.root.id: maxLength added or changed',
    ]);
    expect(incompatibilities(before, withoutIds(job.partial({ agent: true })))).toEqual([
      '.root.agent: no longer required',
    ]);
    expect(incompatibilities(before, withoutIds(job.extend({ priority: z.number().optional() })))).toEqual([]);
    expect(
      incompatibilities(before, withoutIds(job.extend({ kind: z.enum(['generate', 'resume', 'cancel']) }))),
    ).toEqual([]);
    expect(
      incompatibilities(before, withoutIds(job.extend({ generation_id: z.union([z.string(), z.number()]) }))),
    ).toEqual([]);
  });

  it('a change deep inside a record, through its references, breaks too', () => {
    // The question inside a pending record: its kind narrowed, and its prompt's type changed.
    const pending = withoutIds(pendingRecordSchema);
    const question = inputRequestSchema.extend({ kind: z.enum(['confirm', 'text', 'choice']), prompt: z.number() });
    const changed = withoutIds(pendingRecordSchema.extend({ input_requests: sealable(z.array(question)) }));
    expect(incompatibilities(pending, changed)).toEqual([
      '.root.input_requests|0[].kind: no longer takes "secret"',
      '.root.input_requests|0[].prompt: was string, now number',
    ]);
    // A record inside another, referred to by name (`allOf: [{ $ref }]` beside its description).
    const letter = withoutIds(deadLetterSchema);
    const job = jobSchema.extend({ id: z.number() }).meta({ id: 'Job' });
    const retyped = withoutIds(deadLetterSchema.extend({ job: job.exactOptional().describe('The job') }));
    expect(incompatibilities(letter, retyped)).toEqual(['.root.job.id: was string, now number']);
  });
});

/** The `version` a record's schema fixes (its `const`), or undefined. */
function recordVersion(schema: SchemaDocument): unknown {
  const root = schema.components.schemas[schema.$ref.replace('#/components/schemas/', '')] as {
    properties?: { version?: { const?: unknown } };
  };
  return root.properties?.version?.const;
}
