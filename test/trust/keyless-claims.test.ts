import { createWorker, natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import {
  type Checkpoint,
  createRuntime,
  defineAgent,
  InputRequest,
  ResumeError,
  type Runtime,
  tool,
} from '@interlude/core';
import { forgedClaimsSeen } from '@interlude/core/internal';
import { scriptedProvider } from '@interlude/core/testing';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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
async function answersAsIfNothingHappened(
  runtime: Runtime,
  refunds: Refund[],
  generationId: string,
  forgeries: number,
): Promise<void> {
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
  // Each forged record was seen, counted once (whoever read it), and skipped.
  expect(forgedClaimsSeen() - skippedBefore).toBe(forgeries);
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

    await answersAsIfNothingHappened(runtime, refunds, paused.generationId, 3);

    // A genuine record, signed with the deployment's key, copied byte for byte onto another paused
    // generation's slot: it names the slot it was written in, so there it claims nothing either.
    const other = await desk.refund({ account: `bob-${uniqueId('b')}` }).generateNow();
    const copier = await connect({ servers: nats.server.url });
    try {
      const original = await jetstream(copier).jetstreamManager();
      const stored = await original.streams.getMessage('INTERLUDE_CLAIMS', {
        last_by_subj: `interlude.claims.${paused.generationId}.${slot + 3}`,
      });
      expect(stored?.json()).toMatchObject({
        kind: 'claim',
        key_id: expect.any(String),
        signature: expect.any(String),
      });
      await jetstream(copier).publish(
        `interlude.claims.${other.generationId}.${slot}`,
        stored?.data ?? new Uint8Array(),
      );
    } finally {
      await copier.close();
    }
    await answersAsIfNothingHappened(runtime, refunds, other.generationId, 1);
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

    await answersAsIfNothingHappened(runtime, refunds, paused.generationId, 3);
  });

  it('on a job’s run: forgeries written ahead of the run, in the very slot of its paused step too, cost a rerun and one question, and run nothing twice', async () => {
    const runtime = createRuntime();
    const refunds: string[] = [];
    let forgedAhead = false;
    const agent = defineAgent({
      name: 'ahead',
      runtime,
      provider: scriptedProvider(
        Array.from(
          { length: 50 },
          () => (request: { messages: unknown }) =>
            JSON.stringify(request.messages).includes('"tool_use_id":"call_refund"')
              ? { text: 'Refunded.' }
              : { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] },
        ),
      ),
      actions: {
        refund: () => ({
          message: 'Refund the customer',
          tools: [
            tool({
              name: 'issue_refund',
              description: 'Refund the account',
              input: z.object({ amount: z.number() }),
              async run({ amount }, ctx) {
                if (ctx.answer === undefined) {
                  // While the run asks, a keyless client fills the next slots: the paused step's among them.
                  if (!forgedAhead) {
                    forgedAhead = true;
                    for (let slot = 0; slot < 8; slot += 1) {
                      const [record] = forgedRecords(ctx.generationId, slot);
                      await runtime.bus.claims.write(ctx.generationId, slot, { ...record, slot } as never);
                    }
                  }
                  return InputRequest.confirm(`Refund $${amount}?`);
                }
                refunds.push(ctx.generationId);
                return { refunded: amount };
              },
            }),
          ],
        }),
      },
    });
    const worker = createWorker({ runtime, agents: [agent] });
    try {
      await worker.ready;
      const { generationId } = await agent.generation('refund', {}).generateLater();
      // The forgery in the paused step's own slot failed that step; the job ran again from the log
      // and, as after any failure once a call started, asks whether to run the call again first.
      const prompts: string[] = [];
      for (let round = 0; round < 2; round += 1) {
        await expect
          .poll(async () => (await runtime.pending({ agent: 'ahead' })).map((entry) => entry.generationId), {
            timeout: 10_000,
          })
          .toEqual([generationId]);
        const [listed] = await runtime.pending({ agent: 'ahead' });
        prompts.push(String(listed?.inputRequests[0]?.prompt));
        const outcomes = await Promise.all([
          refusal(runtime.answer(generationId, { call_refund: true })),
          refusal(runtime.answer(generationId, { call_refund: true })),
        ]);
        expect(outcomes.sort()).toEqual(['already_resumed', 'resumed']);
      }
      expect(forgedAhead).toBe(true);
      expect(prompts).toEqual(['issue_refund stopped mid-call in a run that failed; run it again?', 'Refund $30?']);
      expect(refunds).toEqual([generationId]);
      expect(await runtime.pending({ agent: 'ahead' })).toEqual([]);
      const events = await runtime.bus.events(generationId);
      expect(events.at(-1)?.event).toBe('completed');
    } finally {
      await worker.stop();
    }
  });
});
