import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { type Checkpoint, createRuntime, ResumeError, type Runtime } from '@interlude/core';
import { forgedClaimsSeen } from '@interlude/core/internal';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { defineTrustDesk, type Refund } from '../support/trust-desk.js';

const nats = usePrivateNatsServer('interlude-keyless-claims-');
const checkpointKey = 'keyless-claims-deployment-key-0123456789';

/** What a client holding no key writes into a paused generation's claim slots: a claim, a stop, a release. */
function forgedRecords(generationId: string, slot: number) {
  const time = new Date().toISOString();
  return [
    { version: 1, kind: 'claim', generation_id: generationId, slot, holder: 'forger', epoch: 1, time },
    { version: 1, kind: 'finished', generation_id: generationId, slot: slot + 1, holder: 'forger', epoch: 1, time },
    { version: 1, kind: 'claim', holder: 'forger', epoch: 9, time, key_id: '00000000', signature: 'A'.repeat(43) },
  ];
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resumed',
    (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
  );
}

/**
 * After the forgeries: the pause is still listed, two concurrent answers of it make exactly one
 * resume (one refund), and it is then listed no more.
 */
async function answersAsIfNothingHappened(runtime: Runtime, refunds: Refund[], generationId: string): Promise<void> {
  const skippedBefore = forgedClaimsSeen();
  expect((await runtime.pending({ agent: 'desk' })).map((entry) => entry.generationId)).toContain(generationId);
  const outcomes = await Promise.all([
    refusal(runtime.answer(generationId, { call_refund: true })),
    refusal(runtime.answer(generationId, { call_refund: true })),
  ]);
  expect(outcomes.sort()).toEqual(['already_resumed', 'resumed']);
  expect(refunds.filter((refund) => refund.generationId === generationId)).toHaveLength(1);
  expect((await runtime.pending({ agent: 'desk' })).map((entry) => entry.generationId)).not.toContain(generationId);
  expect(await refusal(runtime.answer(generationId, { call_refund: true }))).toBe('already_resumed');
  // Each forged record was seen, counted once, and skipped.
  expect(forgedClaimsSeen() - skippedBefore).toBe(3);
}

describe('claim records a client without the key writes change no outcome', () => {
  it('on NATS: records a plain nats.js connection publishes on the pause’s claim subjects claim nothing', async () => {
    const runtime = createRuntime({
      bus: natsBus({ servers: nats.server.url, name: 'keyless-claims' }),
      checkpointKey,
    });
    nats.runtimes.push(runtime);
    const refunds: Refund[] = [];
    const desk = defineTrustDesk(runtime, refunds);
    const paused = await desk.refund({ account: `alice-${uniqueId('a')}` }).generateNow();
    const slot = (paused.checkpoint as Checkpoint).claim_slot;

    // Any client allowed to publish on interlude.claims.>, holding no key, fills the slots first.
    const attacker = await connect({ servers: nats.server.url });
    try {
      const stream = jetstream(attacker);
      const records = forgedRecords(paused.generationId, slot);
      for (const [offset, record] of records.entries()) {
        const ack = await stream.publish(
          `interlude.claims.${paused.generationId}.${slot + offset}`,
          JSON.stringify(record),
        );
        expect(ack.duplicate).toBe(false);
      }
    } finally {
      await attacker.close();
    }
    // The slot the pause waits at holds the forgery: only the reader's check keeps it from counting.
    expect(await runtime.bus.claims.read(paused.generationId, slot)).toMatchObject({ holder: 'forger' });

    await answersAsIfNothingHappened(runtime, refunds, paused.generationId);
  }, 60_000);

  it('on the memory bus: records written straight into its claim log claim nothing', async () => {
    const runtime = createRuntime();
    const refunds: Refund[] = [];
    const desk = defineTrustDesk(runtime, refunds);
    const paused = await desk.refund({ account: 'alice' }).generateNow();
    const slot = (paused.checkpoint as Checkpoint).claim_slot;
    for (const [offset, record] of forgedRecords(paused.generationId, slot).entries()) {
      expect(await runtime.bus.claims.write(paused.generationId, slot + offset, record as never)).toEqual({
        stored: true,
      });
    }

    await answersAsIfNothingHappened(runtime, refunds, paused.generationId);
  });
});
