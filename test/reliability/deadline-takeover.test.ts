import { writeFile } from 'node:fs/promises';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type GenerationEvent } from '@interlude/core';
import { epochOf } from '@interlude/core/internal';
import { describe, expect, it } from 'vitest';
import { startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, readSideEffects } from '../support/bus-refund-agent.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { waitUntil } from '../support/reliability-wait.js';

/** The jobs' ack wait, which is also how long a due timer held by a dead worker takes to come back. */
const ACK_WAIT_MS = '2000';
/** The refund question expires this long after it is asked, approved then (`onExpiry: { answer: true }`). */
const APPROVE_AFTER_MS = '1500';

const nats = usePrivateNatsServer('interlude-deadline-takeover-');
const { children, runtimes } = nats;

function isOutcomeUnknownPause(event: GenerationEvent): boolean {
  return (
    event.event === 'input_requested' &&
    event.data.input_requests.some((request) => request.metadata?.['outcome_unknown'] === true)
  );
}

/**
 * The test's runtime with the refund agent under a name of its own, its question expiring and
 * approved then, and how to start a worker serving it: the refund idempotent or not, bodies held
 * as `hold` says (`HOLD_REFUND` and its kin; the first hold's file is `holdFile`).
 */
function expiringDesk(options: { idempotent: boolean; hold: Record<string, string> }) {
  const trial = uniqueId('deadline');
  const sideEffectsFile = `${nats.directory}/${trial}-effects.jsonl`;
  const holdFile = `${nats.directory}/${trial}-hold`;
  const name = uniqueId('expiring');
  const queue = uniqueId('queue');
  const runtime = createRuntime({ bus: natsBus({ servers: nats.server.url, name: 'deadline-takeover-test' }) });
  runtimes.push(runtime);
  const agent = defineRefundAgent(runtime, { sideEffectsFile, name, approveAfterMs: 60_000 });
  const start = () => {
    const child = startScript('bus-worker-process.ts', {
      NATS_URL: nats.server.url,
      QUEUE: queue,
      AGENT_NAME: name,
      SIDE_EFFECTS_FILE: sideEffectsFile,
      APPROVE_AFTER_MS,
      JOB_ACK_WAIT_MS: ACK_WAIT_MS,
      HOLD_REFUND_FILE: holdFile,
      REFUND_IDEMPOTENT: options.idempotent ? '1' : '0',
      ...options.hold,
    });
    children.push(child);
    return child;
  };
  return { runtime, agent, name, queue, sideEffectsFile, holdFile, start };
}

/**
 * A generation queued with `generateLater` pauses in a worker on a refund question that expires
 * and approves on expiry; the worker meeting the deadline is SIGKILLed inside the refund body,
 * before its side effect; a second worker starts. Returns what the log and the views say then.
 */
async function killWhileMeetingDeadline(options: { idempotent: boolean }) {
  const { runtime, agent, name, queue, sideEffectsFile, start } = expiringDesk({
    idempotent: options.idempotent,
    hold: { HOLD_REFUND: 'killed' },
  });
  const first = start();
  await first.waitForLine(/^ready$/);
  const { generationId } = await agent.generation('handle', { ticketId: 42 }).generateLater({ queue });
  await first.waitForLine(new RegExp(`^job awaiting_input ${generationId}$`));
  // The deadline passes; the worker meets it, and is killed inside the approved refund.
  await first.waitForLine(new RegExp(`^holding ${generationId}$`), 60_000);
  await first.stop('SIGKILL');
  const second = start();
  await second.waitForLine(/^ready$/);
  return { runtime, name, generationId, second, sideEffectsFile };
}

describe('a worker killed while meeting a deadline (inside the tool the expiry approved)', () => {
  it('the timer comes back to the next worker, which takes the expiry run over and asks whether the refund ran', async () => {
    const { runtime, name, generationId, second, sideEffectsFile } = await killWhileMeetingDeadline({
      idempotent: false,
    });
    await waitUntil(
      async () => (await runtime.bus.events(generationId, { everyEpoch: true })).some(isOutcomeUnknownPause),
      'the takeover of the expiry run to ask about the refund',
      { timeoutMs: 30_000 },
    );
    const events = await runtime.bus.events(generationId, { everyEpoch: true });
    const question = events.findLast(isOutcomeUnknownPause);
    expect(question?.run).not.toBe('start');
    expect(epochOf(question as GenerationEvent)).toBeGreaterThanOrEqual(2);
    // Listed, answerable, and what the refund question's expiry decided was not lost.
    const listed = await runtime.pending({ agent: name });
    expect(listed.map((entry) => entry.generationId)).toEqual([generationId]);
    expect(listed[0]?.inputRequests.map((request) => request.toolCallId)).toEqual(['call_refund']);
    await runtime.answer(generationId, { call_refund: false });
    const last = (await runtime.bus.events(generationId)).at(-1);
    expect(last?.event).toBe('completed');
    expect((await readSideEffects(sideEffectsFile)).filter((effect) => effect.tool === 'issue_refund')).toEqual([]);
    expect(second.lines.filter((line) => line.startsWith('job refused'))).toEqual([]);
  }, 180_000);

  it('an idempotent refund runs again on the takeover, announced as attempt 2, and the generation completes', async () => {
    const { runtime, generationId, second, sideEffectsFile } = await killWhileMeetingDeadline({ idempotent: true });
    await second.waitForLine(new RegExp(`^job completed ${generationId}$`), 30_000);
    const events = await runtime.bus.events(generationId, { everyEpoch: true });
    // Taken over one epoch up (or more, when a loaded machine kept a heartbeat back), run again, said so.
    const refundStarts = events.filter(
      (event): event is Extract<GenerationEvent, { event: 'tool_started' }> =>
        event.event === 'tool_started' && event.data.tool_name === 'issue_refund' && event.run !== 'start',
    );
    expect(epochOf(refundStarts[0] as GenerationEvent)).toBe(1);
    const rerun = refundStarts.at(-1);
    expect(epochOf(rerun as GenerationEvent)).toBeGreaterThanOrEqual(2);
    expect([rerun?.data.attempt, rerun?.data.reason]).toEqual([2, 'outcome_unknown']);
    expect((await runtime.bus.events(generationId)).at(-1)?.event).toBe('completed');
    const refunds = (await readSideEffects(sideEffectsFile)).filter((effect) => effect.tool === 'issue_refund');
    expect(new Set(refunds.map((effect) => effect.pid))).toEqual(new Set([second.process.pid]));
  }, 180_000);
});

describe('a deadline run fenced by a takeover, then the run that took it over killed', () => {
  it('the fenced worker leaves the timer to the takeover, so it comes back once more: a third worker ends the generation', async () => {
    // Worker 1 meets the deadline and is SIGSTOPped inside the approved (idempotent) refund, past
    // the ack wait; worker 2 takes the expiry run over and is held inside the refund too; worker 1
    // is continued, is fenced, and drains; worker 2 is SIGKILLed; the timer must come back.
    const { runtime, agent, queue, sideEffectsFile, holdFile, start } = expiringDesk({
      idempotent: true,
      hold: { HOLD_REFUND: 'continued', HOLD_NEXT_REFUND_FILE: `${nats.directory}/${uniqueId('next')}-hold` },
    });
    const holding = (generationId: string) => new RegExp(`^holding ${generationId}$`);
    const first = start();
    await first.waitForLine(/^ready$/);
    const { generationId } = await agent.generation('handle', { ticketId: 42 }).generateLater({ queue });
    await first.waitForLine(holding(generationId), 60_000);
    first.process.kill('SIGSTOP');
    const second = start();
    try {
      await second.waitForLine(holding(generationId), 60_000);
    } finally {
      await writeFile(`${holdFile}.go`, 'go\n');
      first.process.kill('SIGCONT');
    }
    await first.waitForLine(new RegExp(`^job fenced ${generationId}$`), 30_000);
    // Drained, so whatever it does with the timer it has done; then the run that took over dies.
    await first.stop('SIGTERM');
    await second.stop('SIGKILL');
    const third = start();
    await third.waitForLine(new RegExp(`^job completed ${generationId}$`), 30_000).catch(async (error: Error) => {
      // What each worker said and what the log holds, so a failure shows where the timer went.
      const log = (await runtime.bus.events(generationId, { everyEpoch: true })).map(
        (event) => `${event.run === 'start' ? 'start' : 'resume'} epoch ${epochOf(event)} ${event.event}`,
      );
      const said = [first, second, third].map((child, at) => `worker ${at + 1}: ${child.lines.join(' | ')}`);
      throw new Error(`${error.message}\n${said.join('\n')}\n${log.join('\n')}`);
    });

    const events = await runtime.bus.events(generationId, { everyEpoch: true });
    expect(events.at(-1)?.event).toBe('completed');
    const refundStarts = events.filter(
      (event) => event.event === 'tool_started' && event.data.tool_name === 'issue_refund' && event.run !== 'start',
    );
    // The expiry run met three times, one epoch up each time (or more, when a loaded machine kept a heartbeat back).
    expect(epochOf(refundStarts.at(-1) as GenerationEvent)).toBeGreaterThanOrEqual(3);
    // The refund ran in the fenced worker (its body went on once continued) and in the third; the killed one never got that far.
    const refunds = (await readSideEffects(sideEffectsFile)).filter((effect) => effect.tool === 'issue_refund');
    expect(new Set(refunds.map((effect) => effect.pid))).toEqual(new Set([first.process.pid, third.process.pid]));
  }, 180_000);
});
