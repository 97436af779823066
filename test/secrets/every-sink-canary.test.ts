import { randomBytes } from 'node:crypto';
import { FILTERED } from '@interlude/core';
import { secretFormsIn } from '@interlude/core/testing';
import { afterEach, beforeEach, expect, inject, it } from 'vitest';
import { createScratchSchema, type ScratchSchema } from '../context/postgres-schema.js';
import { runSecretCanaryScenario } from '../support/secret-canary-scenario.js';

let schema: ScratchSchema;
beforeEach(async () => {
  schema = await createScratchSchema();
});
afterEach(async () => {
  await schema.drop();
});

// Quotes, a backslash, a slash, a plus and letters outside ASCII, so that every encoding of the
// secret differs from its text; a random part, so no other test's bytes can hold it.
const token = `Tok-${randomBytes(6).toString('hex')}-Ünï "kéy" /+? \\ ??`;
// The person's own key in the object answer (`token` is the key the schema declares).
const key = `Dev-${randomBytes(6).toString('hex')}-Ørsted`;

it('a secret the tools return, throw and ask in every form reaches its tools and no sink, in no form', async () => {
  const run = await runSecretCanaryScenario(
    { token, key },
    { natsUrl: inject('natsUrl'), pool: schema.pool, schema: schema.name },
  );

  // The secret reached its tools, and the option picked reached its tool as the tool offered it…
  expect.soft(run.witness).toEqual({ token, key, pickedAccount: token });
  // …a process that never saw the secret could not answer the scrubbed option…
  expect.soft(run.elsewhere).toBe('refused secret_option');
  expect(Object.keys(run.sinks).sort()).toEqual([
    'checkpoint bucket',
    'conversation rows',
    'dead letters',
    'errors and causes',
    'every NATS message',
    'model requests',
    'responses',
    'spans',
    'stored claims',
    'stored events',
    'stored jobs',
  ]);
  for (const [sink, text] of Object.entries(run.sinks)) {
    // …each sink received what the secret was scrubbed from (so its silence below means something)…
    expect.soft(text, sink).toContain(FILTERED);
    // …and holds neither secret in any form: as typed, any case, NFC/NFD, JSON-escaped,
    // URL-encoded, hex, base64 at any offset, bytes, or eight characters of it in a row.
    expect.soft(secretFormsIn(text, token), `${sink}: the token`).toEqual([]);
    expect.soft(secretFormsIn(text, key), `${sink}: the key`).toEqual([]);
  }
}, 120_000);
