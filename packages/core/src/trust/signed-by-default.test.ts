import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createMemoryBus } from '../bus/memory-bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { TrustError } from '../errors/trust-error.js';
import { InputRequest } from '../input-request/input-request.js';
import { createRuntime } from '../runtime/create-runtime.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { tool } from '../tool/tool.js';
import { CHECKPOINT_KEY_VARIABLE } from './runtime-keys.js';

const KEY = 'signed-by-default-test-key-0123';

// The suite sets a key for every process it runs; the tests of the defaults start without one.
const suiteKey = process.env[CHECKPOINT_KEY_VARIABLE];
beforeEach(() => {
  delete process.env[CHECKPOINT_KEY_VARIABLE];
});
afterEach(() => {
  vi.restoreAllMocks();
  if (suiteKey === undefined) delete process.env[CHECKPOINT_KEY_VARIABLE];
  else process.env[CHECKPOINT_KEY_VARIABLE] = suiteKey;
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resumed',
    (error: unknown) => (ResumeError.isInstance(error) || TrustError.isInstance(error) ? error.code : String(error)),
  );
}

/** A refund whose destination account comes from the action's params, as a real desk would have it. */
function refundDesk(options: RuntimeOptions) {
  const refunds: { account: string; amount: number }[] = [];
  const action = ({ account }: { account: string }) => ({
    message: `Refund the customer ${account}`,
    tools: [
      tool({
        name: 'issue_refund',
        description: 'Refund the account',
        input: z.object({ amount: z.number() }),
        async run({ amount }, ctx) {
          if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} to ${account}?`);
          refunds.push({ account, amount });
          return { refunded: amount };
        },
      }),
    ],
  });
  const harness = scriptedAgent(
    action,
    [{ toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] }, { text: 'Refunded.' }],
    options,
  );
  return { ...harness, refunds };
}

describe('signed by default', () => {
  it('a runtime with no key signs with a per-bus key and refuses an edited checkpoint (30 → 30000, new generation id)', async () => {
    const scenario = createRefundScenario();
    const { agent, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const paused = await agent.handle({ ticketId: 42 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint) as Checkpoint;
    expect(checkpoint.key_id).toMatch(/^[0-9a-f]{8}$/);
    expect(checkpoint.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const edited = JSON.parse(JSON.stringify(checkpoint).replaceAll('"amount":30', '"amount":30000')) as Checkpoint;
    edited.generation_id = 'gen_ffffffffffffffffffffffffffffffff';
    const resume = agent.handle({ ticketId: 42 }).resumeNow({ checkpoint: edited, answers: { call_refund: true } });
    expect(await codeOf(resume)).toBe('bad_signature');
    const unsigned = { ...edited, signature: undefined, key_id: undefined };
    const resumeUnsigned = agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint: unsigned, answers: { call_refund: true } });
    expect(await codeOf(resumeUnsigned)).toBe('bad_signature');
    expect(scenario.refunds).toEqual([]);

    // Another runtime of the process on a bus of its own (a test, a hot reload, a factory per
    // request) has a key of its own: it refuses the checkpoint, whose claims its bus does not keep.
    const apart = scriptedAgent(scenario.action, [scenario.replies[1] as never]);
    const elsewhere = apart.agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    expect(await codeOf(elsewhere)).toBe('bad_signature');
    // One on the same bus holds the same key: an untouched checkpoint resumes there, once.
    const beside = scriptedAgent(scenario.action, [scenario.replies[1] as never], { bus: runtime.bus });
    const done = await beside.agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    expect(done.status).toBe('completed');
    const again = agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    expect(await codeOf(again)).toBe('already_resumed');
    expect(scenario.refunds).toEqual([{ order_id: 42, amount: 30 }]);
  });

  it('a checkpoint approved for alice cannot be resumed with params that refund mallory', async () => {
    const desk = refundDesk({ checkpointKey: KEY });
    const paused = await desk.agent.handle({ account: 'alice' }).generateNow();
    const resume = desk.agent
      .handle({ account: 'mallory' })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });
    expect(await codeOf(resume)).toBe('bad_signature');
    expect(desk.refunds).toEqual([]);
    await desk.agent
      .handle({ account: 'alice' })
      .resumeNow({ checkpoint: throughJson(paused.checkpoint), answers: { call_refund: true } });
    expect(desk.refunds).toEqual([{ account: 'alice', amount: 30 }]);
  });

  it('a checkpoint signed in one deployment is refused by another holding the same key', async () => {
    const first = refundDesk({ checkpointKey: KEY, audience: 'desk-eu' });
    const paused = await first.agent.handle({ account: 'alice' }).generateNow();
    expect(paused.checkpoint?.audience).toBe('desk-eu');
    const second = refundDesk({ checkpointKey: KEY, audience: 'desk-us' });
    const resume = second.agent
      .handle({ account: 'alice' })
      .resumeNow({ checkpoint: paused.checkpoint, answers: { call_refund: true } });
    expect(await codeOf(resume)).toBe('audience_mismatch');
    expect(second.refunds).toEqual([]);
  });

  it('a checkpoint past checkpointTtlMs is refused with expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const desk = refundDesk({ checkpointKey: KEY, checkpointTtlMs: 1 });
      const paused = await desk.agent.handle({ account: 'alice' }).generateNow();
      expect(Date.parse(paused.checkpoint?.expires_at ?? '')).toBeGreaterThan(0);
      vi.advanceTimersByTime(20);
      expect(await codeOf(desk.runtime.answer(paused.generationId, { call_refund: true }))).toBe('expired');
      expect(desk.refunds).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses to start on a bus shared across processes without a key; reads INTERLUDE_CHECKPOINT_KEY; false says so on stderr once', async () => {
    const shared = () => ({ ...createMemoryBus(), shared: true });
    expect(() => createRuntime({ bus: shared() })).toThrow(
      expect.objectContaining({ name: 'TrustError', code: 'missing_checkpoint_key' }),
    );
    process.env[CHECKPOINT_KEY_VARIABLE] = `${KEY}, an-older-key-kept-for-rotation`;
    const fromEnvironment = createRuntime({ bus: shared() });
    expect(fromEnvironment.keys?.keyIds).toHaveLength(2);
    // A runtime built after the variable changed signs with what it says now.
    process.env[CHECKPOINT_KEY_VARIABLE] = 'a-key-rotated-in-alone-0123456';
    expect(createRuntime({ bus: shared() }).keys?.keyIds).toHaveLength(1);
    expect(createRuntime({ bus: shared() }).keys?.signingKeyId).not.toBe(fromEnvironment.keys?.signingKeyId);
    process.env[CHECKPOINT_KEY_VARIABLE] = 'short';
    expect(() => createRuntime({ bus: shared() })).toThrow(/INTERLUDE_CHECKPOINT_KEY/);
    delete process.env[CHECKPOINT_KEY_VARIABLE];

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // Once per process: a fresh copy of the modules stands for a new process (the fast tier runs
    // many test files in one, and an earlier one may have turned signing off already).
    vi.resetModules();
    const { createRuntime: createInNewProcess } = await import('../runtime/create-runtime.js');
    expect(createInNewProcess({ bus: shared(), checkpointKey: false }).keys).toBeUndefined();
    createInNewProcess({ bus: shared(), checkpointKey: false });
    const said = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('signing is off'));
    expect(said).toHaveLength(1);
  });

  it('a signed checkpoint moved under another generation is refused, and that generation is rebuilt from its log: listed and answered as its own', async () => {
    const desk = refundDesk({ checkpointKey: KEY });
    const small = await desk.agent.handle({ account: 'alice' }).generateNow();
    // Another desk of the deployment (same bus, same key) pauses a refund to mallory.
    const beside = refundDesk({ checkpointKey: KEY, bus: desk.runtime.bus });
    const other = await beside.agent.handle({ account: 'mallory' }).generateNow();
    const moved = await desk.runtime.bus.checkpoints.load(other.generationId);
    await desk.runtime.bus.checkpoints.save(small.generationId, {
      checkpoint: moved?.checkpoint as Checkpoint,
      params: moved?.params,
    });
    const listed = await desk.runtime.pending();
    expect(listed.map((entry) => [entry.generationId, entry.inputRequests[0]?.prompt])).toEqual([
      [small.generationId, 'Refund $30 to alice?'],
      [other.generationId, 'Refund $30 to mallory?'],
    ]);
    const done = await desk.runtime.answer(small.generationId, { call_refund: true });
    expect(done.generationId).toBe(small.generationId);
    expect(desk.refunds).toEqual([{ account: 'alice', amount: 30 }]);
    expect((await desk.runtime.pending()).map((entry) => entry.generationId)).toEqual([other.generationId]);
  });

  it('a stored record whose params were changed is refused: the answer resumes the pause its log holds, for the params it started with', async () => {
    const desk = refundDesk({ checkpointKey: KEY });
    const paused = await desk.agent.handle({ account: 'alice' }).generateNow();
    const stored = await desk.runtime.bus.checkpoints.load(paused.generationId);
    await desk.runtime.bus.checkpoints.save(paused.generationId, {
      checkpoint: stored?.checkpoint as Checkpoint,
      params: { account: 'mallory' },
    });
    expect((await desk.runtime.pending()).map((entry) => entry.inputRequests[0]?.prompt)).toEqual([
      'Refund $30 to alice?',
    ]);
    expect((await desk.runtime.answer(paused.generationId, { call_refund: true })).status).toBe('completed');
    expect(desk.refunds).toEqual([{ account: 'alice', amount: 30 }]);
  });

  it('a record written under an id whose log holds no pause is refused: nothing to rebuild it from', async () => {
    const desk = refundDesk({ checkpointKey: KEY });
    const paused = await desk.agent.handle({ account: 'alice' }).generateNow();
    const stored = await desk.runtime.bus.checkpoints.load(paused.generationId);
    // A generation that never paused here: only a record someone wrote under its id.
    const phantom = 'gen_00000000000000000000000000000001';
    await desk.runtime.bus.checkpoints.save(phantom, {
      checkpoint: { ...(stored?.checkpoint as Checkpoint), generation_id: phantom },
      params: stored?.params,
    });
    expect(await codeOf(desk.runtime.answer(phantom, { call_refund: true }))).toBe('bad_signature');
    expect((await desk.runtime.pending()).map((entry) => entry.generationId)).toEqual([paused.generationId]);
    expect(desk.refunds).toEqual([]);
  });
});
