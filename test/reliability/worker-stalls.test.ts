import { natsBus } from '@interlude/bus';
import { createRuntime, type GenerationEvent, idempotencyKeyOf, type Runtime } from '@interlude/core';
import { epochOf } from '@interlude/core/internal';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { defineReliabilityAgent } from '../support/reliability-agent.js';
import { recordFigure } from '../support/reliability-figures.js';
import { startFleet } from '../support/reliability-fleet.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { waitUntil } from '../support/reliability-wait.js';
import { soakSize } from '../support/soak.js';

/** Short, so a stall outlasts it quickly; heartbeats (a third of it) keep every healthy job alive. */
const ACK_WAIT_MS = 1_000;
/** Resumes started together: two of the three workers stall, the third takes their runs over. */
const BATCH = 2;
/** Trials of each kind. Fewer CPU-bound ones: each keeps a core busy for three ack waits on a shared machine. */
const STOP_TRIALS = soakSize({ short: 8, long: 20 });
const IDEMPOTENT_TRIALS = soakSize({ short: 4, long: 6 });
const CPU_TRIALS = soakSize({ short: 3, long: 4 });

let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let fleetStop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ledger = await createLedger(inject('postgresUrl'));
  runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), name: 'reliability-stall-test' }) });
  defineReliabilityAgent(runtime, { ledger });
});

afterEach(async () => {
  await fleetStop?.();
});

afterAll(async () => {
  await runtime?.close();
  await ledger?.drop();
});

/** How one trial's stalled refund ended, read from its log. */
interface TrialEnd {
  generationId: string;
  /** Another delivery took the run over (an event of epoch 2 or more in the refund's run). */
  takenOver: boolean;
  /** The takeover asked whether to run the refund again. */
  asked: boolean;
  /** The refund ran again on the takeover, announced as attempt 2 with reason outcome_unknown. */
  reranAnnounced: boolean;
}

/**
 * `trials` generations through 3 worker processes, each stalling inside `issue_refund` (before its
 * side effect) past the ack wait: `stop` is SIGSTOP, then SIGCONT once the takeover has shown in
 * the log; `cpu` is a tool computing for three ack waits, with no signal at all. Resumes start
 * `BATCH` at a time. The operator answers every question, one about an unknown outcome only once
 * the stalled worker was fenced out (it cannot run the refund after that), by what the ledger shows.
 */
async function runStallTrials(options: { trials: number; stall: 'stop' | 'cpu'; idempotent?: boolean }) {
  const released = new Set<string>();
  const fleet = await startFleet({
    runtime,
    ledger,
    natsUrl: inject('natsUrl'),
    postgresUrl: inject('postgresUrl'),
    count: 3,
    ackWaitMs: ACK_WAIT_MS,
    generations: options.trials,
    env: {
      STALL_PLAN: JSON.stringify(
        Object.fromEntries(Array.from({ length: options.trials }, (_, t) => [t, options.stall])),
      ),
      CPU_STALL_MS: String(3 * ACK_WAIT_MS),
      REFUND_IDEMPOTENT: options.idempotent === true ? '1' : '0',
    },
    holdFirstAnswer: (generationId) => waitUntil(() => released.has(generationId), 'its batch', { timeoutMs: 300_000 }),
  });
  fleetStop = fleet.stop;
  const { operator, generationIds, queue, supervisor: current } = fleet;
  const stopped: number[] = [];
  try {
    await fleet.enqueueAll();
    for (let from = 0; from < options.trials; from += BATCH) {
      const batch = generationIds.slice(from, from + BATCH);
      for (const generationId of batch) released.add(generationId);
      if (options.stall === 'stop') await stopAndContinue(batch, from, stopped);
      await waitUntil(
        () => batch.every((generationId) => operator.completed.has(generationId)),
        'the batch to complete',
        {
          timeoutMs: 60_000,
          progress: () => `${operator.completed.size} completed, ${operator.failures.join('; ')}`,
        },
      );
    }
    expect(operator.failures).toEqual([]);
    expect(await runtime.bus.jobs.deadLetters(queue)).toEqual([]);
    const ends: TrialEnd[] = [];
    for (const generationId of generationIds) ends.push(trialEnd(generationId, await runtime.bus.events(generationId)));
    // Every run taken over had a holder that woke and, at its next step, was fenced out (a batch
    // can complete while the one it stalled is still finishing its tool body).
    const takenOver = ends.filter((end) => end.takenOver).length;
    await waitUntil(() => current.announced('job fenced').length >= takenOver, 'every stalled holder to be fenced', {
      timeoutMs: 30_000,
    });
    return { generationIds, operator, ends, stopped, fencedRuns: current.announced('job fenced').length };
  } finally {
    await fleet.stop();
  }

  /** SIGSTOPs each worker that announces a stall of this batch, and continues it once its run was taken over. */
  async function stopAndContinue(batch: string[], firstTicket: number, pids: number[]) {
    await Promise.all(
      batch.map(async (generationId, offset) => {
        const line = `stall ${firstTicket + offset}`;
        await waitUntil(() => current.announced(line).length > 0, line, { timeoutMs: 30_000 });
        const child = current.announced(line)[0]?.child;
        child?.process.kill('SIGSTOP');
        pids.push(child?.process.pid ?? -1);
        try {
          // Continued as soon as the takeover shows (or after 10 s, when it never came).
          await waitUntil(async () => takenOver(await runtime.bus.events(generationId)), 'the takeover', {
            timeoutMs: 10_000,
          }).catch(() => undefined);
        } finally {
          child?.process.kill('SIGCONT');
        }
      }),
    );
  }
}

function takenOver(events: readonly GenerationEvent[]): boolean {
  return events.some((event) => epochOf(event) >= 2 && event.event !== 'resumed');
}

function trialEnd(generationId: string, events: readonly GenerationEvent[]): TrialEnd {
  const refundRuns = events.filter((event) => event.run !== 'start');
  return {
    generationId,
    takenOver: refundRuns.some((event) => epochOf(event) >= 2),
    asked: events.some(
      (event) =>
        event.event === 'input_requested' &&
        event.data.input_requests.some((request) => request.metadata?.['outcome_unknown'] === true),
    ),
    reranAnnounced: events.some(
      (event) =>
        event.event === 'tool_started' &&
        event.data.tool_name === 'issue_refund' &&
        event.data.attempt === 2 &&
        event.data.reason === 'outcome_unknown',
    ),
  };
}

/** Each generation's lookup and refund bodies, counted in the ledger across every process. */
async function bodiesRun(generationIds: readonly string[]) {
  const counts = countByCall(await ledger.rows());
  return generationIds.map((generationId) => ({
    lookup: counts.get(`${generationId}/call_lookup`) ?? 0,
    refund: counts.get(`${generationId}/call_refund`) ?? 0,
  }));
}

describe('workers stalled inside a tool past the ack wait, among 3 worker processes', () => {
  it(`${STOP_TRIALS} trials of SIGSTOP then SIGCONT inside issue_refund: no refund runs twice; each stalled call ends as one run or as the outcome-unknown question`, async () => {
    const { generationIds, operator, ends, stopped, fencedRuns } = await runStallTrials({
      trials: STOP_TRIALS,
      stall: 'stop',
    });
    expect(stopped).toHaveLength(STOP_TRIALS);
    // 0 double runs: every refund (and lookup) body ran exactly once, the stalled ones included.
    expect(await bodiesRun(generationIds)).toEqual(generationIds.map(() => ({ lookup: 1, refund: 1 })));
    // Each stalled call: one run reused (its holder woke before the takeover read the log), or the
    // question, which the operator declined once the stalled worker was fenced out and the refund
    // was found in the ledger. Never run again blindly.
    for (const end of ends) expect(end.reranAnnounced, end.generationId).toBe(false);
    const asked = ends.filter((end) => end.asked);
    expect(asked.length).toBeGreaterThan(0);
    expect(operator.declines.sort()).toEqual(asked.map((end) => `${end.generationId}/call_refund`).sort());
    expect(operator.reruns).toEqual([]);
    expect(fencedRuns).toBe(ends.filter((end) => end.takenOver).length);
    recordFigure('worker_stalls_sigstop', {
      trials: STOP_TRIALS,
      workers: 3,
      ackWaitMs: ACK_WAIT_MS,
      takenOver: ends.filter((end) => end.takenOver).length,
      outcomeUnknownQuestions: asked.length,
      fencedRuns,
      doubleRuns: 0,
    });
  }, 300_000);

  it('the idempotent variant runs again on the takeover and says so (attempt 2, outcome_unknown); its idempotency key applies it once', async () => {
    const { generationIds, operator, ends, fencedRuns } = await runStallTrials({
      trials: IDEMPOTENT_TRIALS,
      stall: 'stop',
      idempotent: true,
    });
    const taken = ends.filter((end) => end.takenOver);
    expect(taken.length).toBeGreaterThan(0);
    expect(fencedRuns).toBe(taken.length);
    for (const end of taken) {
      expect(end.reranAnnounced, end.generationId).toBe(true);
      expect(end.asked, end.generationId).toBe(false);
    }
    expect(operator.reruns).toEqual([]);
    expect(operator.declines).toEqual([]);
    const bodies = await bodiesRun(generationIds);
    for (const [index, end] of ends.entries()) expect(bodies[index]?.refund).toBe(end.takenOver ? 2 : 1);
    // Both bodies handed the same key to the "payment API": applied once per generation.
    expect((await ledger.applied()).sort()).toEqual(
      generationIds.map((generationId) => idempotencyKeyOf(generationId, 'call_refund')).sort(),
    );
    recordFigure('worker_stalls_idempotent', {
      trials: IDEMPOTENT_TRIALS,
      takenOver: taken.length,
      rerunsAnnounced: taken.length,
      fencedRuns,
    });
  }, 300_000);

  it('a CPU-bound tool longer than the ack wait (no signal at all): no refund runs twice; each ends as one run or as the question', async () => {
    const { generationIds, operator, ends, fencedRuns } = await runStallTrials({ trials: CPU_TRIALS, stall: 'cpu' });
    expect(await bodiesRun(generationIds)).toEqual(generationIds.map(() => ({ lookup: 1, refund: 1 })));
    for (const end of ends) expect(end.reranAnnounced, end.generationId).toBe(false);
    const asked = ends.filter((end) => end.asked);
    expect(operator.declines.sort()).toEqual(asked.map((end) => `${end.generationId}/call_refund`).sort());
    expect(operator.reruns).toEqual([]);
    expect(ends.filter((end) => end.takenOver).length).toBeGreaterThan(0);
    expect(fencedRuns).toBe(ends.filter((end) => end.takenOver).length);
    recordFigure('worker_stalls_cpu', {
      trials: CPU_TRIALS,
      cpuMs: 3 * ACK_WAIT_MS,
      takenOver: ends.filter((end) => end.takenOver).length,
      outcomeUnknownQuestions: asked.length,
    });
  }, 300_000);
});
