import { createRuntime, ResumeError, type RuntimeOptions } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchSchema, type ScratchSchema } from '../context/postgres-schema.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

let schema: ScratchSchema;
beforeAll(async () => {
  schema = await createScratchSchema();
  await schema.pool.query(`CREATE TABLE "${schema.name}".paused (id text PRIMARY KEY, checkpoint jsonb NOT NULL)`);
});
afterAll(async () => {
  await schema.drop();
});

/** Pauses a refund, keeps its checkpoint in a PostgreSQL `jsonb` column (which reorders keys) and resumes from what comes back. */
async function throughJsonb(options: RuntimeOptions) {
  const refunds: Refund[] = [];
  const desk = defineTrustDesk(createRuntime(options), refunds);
  const paused = await desk.refund({ account: 'alice' }).generateNow();
  await schema.pool.query(`INSERT INTO "${schema.name}".paused (id, checkpoint) VALUES ($1, $2)`, [
    paused.generationId,
    JSON.stringify(paused.checkpoint),
  ]);
  const { rows } = await schema.pool.query(`SELECT checkpoint FROM "${schema.name}".paused WHERE id = $1`, [
    paused.generationId,
  ]);
  const checkpoint = rows[0]?.checkpoint as Record<string, unknown>;
  const outcome = await desk
    .refund({ account: 'alice' })
    .resumeNow({ checkpoint, answers: { call_refund: true } })
    .then(
      (done) => done.status,
      (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
    );
  return {
    outcome,
    refunds,
    reordered: Object.keys(checkpoint).join() !== Object.keys(paused.checkpoint ?? {}).join(),
  };
}

describe('a checkpoint kept in a PostgreSQL jsonb column', () => {
  it('resumes signed (canonical JSON: key order does not matter)', async () => {
    const { outcome, refunds, reordered } = await throughJsonb({});
    expect(reordered).toBe(true);
    expect(outcome).toBe('completed');
    expect(refunds).toHaveLength(1);
  });

  it('resumes unsigned too, instead of a misleading already_resumed', async () => {
    const { outcome, refunds } = await throughJsonb({ checkpointKey: false });
    expect(outcome).toBe('completed');
    expect(refunds).toHaveLength(1);
  });
});
