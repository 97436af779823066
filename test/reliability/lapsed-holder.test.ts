import { readFile, writeFile } from 'node:fs/promises';
import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type GenerationEvent } from '@interlude/core';
import { epochOf } from '@interlude/core/internal';
import { describe, expect, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, readSideEffects } from '../support/bus-refund-agent.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { waitUntil } from '../support/reliability-wait.js';

/** Short, so a SIGSTOP outlasts it quickly; heartbeats (a third of it) keep a healthy job. */
const ACK_WAIT_MS = '1000';

const nats = usePrivateNatsServer('interlude-lapsed-');
const { children, runtimes } = nats;

/** The test's runtime, with the refund agent under a name of this test's own. */
function localRuntime(name: string, sideEffectsFile: string) {
  const runtime = createRuntime({ bus: natsBus({ servers: nats.server.url, name: 'lapsed-holder-test' }) });
  runtimes.push(runtime);
  return { runtime, agent: defineRefundAgent(runtime, { sideEffectsFile, name }) };
}

function worker(env: Record<string, string>): ChildScript {
  const child = startScript('bus-worker-process.ts', {
    NATS_URL: nats.server.url,
    JOB_ACK_WAIT_MS: ACK_WAIT_MS,
    ...env,
  });
  children.push(child);
  return child;
}

function isOutcomeUnknownPause(event: GenerationEvent): boolean {
  return (
    event.event === 'input_requested' &&
    event.data.input_requests.some((request) => request.metadata?.['outcome_unknown'] === true)
  );
}

async function modelCallsOf(file: string, pid: number | undefined): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line === `call ${pid}`).length;
}

/**
 * A refund question answered `true` through the queue, two workers: the one that takes the resume
 * is SIGSTOPped inside the refund body, before its side effect, past the ack wait; once the other
 * has taken the run over and asked whether the refund ran, it is continued (its body then refunds)
 * and stops with a job line. Returns what a test needs to look at the aftermath.
 */
async function stallPastTakeover() {
  const trial = uniqueId('lapse');
  const files = {
    sideEffects: `${nats.directory}/${trial}-effects.jsonl`,
    hold: `${nats.directory}/${trial}-hold`,
    modelCalls: `${nats.directory}/${trial}-model-calls`,
  };
  const name = uniqueId('lapsed');
  const queue = uniqueId('queue');
  const { runtime, agent } = localRuntime(name, files.sideEffects);
  const { generationId } = await agent.generation('handle', { ticketId: 42 }).generateNow();
  const env = {
    QUEUE: queue,
    AGENT_NAME: name,
    SIDE_EFFECTS_FILE: files.sideEffects,
    HOLD_REFUND_FILE: files.hold,
    HOLD_REFUND: 'continued',
    MODEL_CALLS_FILE: files.modelCalls,
  };
  const workers = [worker(env), worker(env)];
  await Promise.all(workers.map((child) => child.waitForLine(/^ready$/)));
  await runtime.answerLater(generationId, { call_refund: true }, { queue });

  const holding = new RegExp(`^holding ${generationId}$`);
  const stalled = await Promise.any(workers.map((child) => child.waitForLine(holding, 60_000).then(() => child)));
  const successor = workers.find((child) => child !== stalled) as ChildScript;
  stalled.process.kill('SIGSTOP');
  try {
    await waitUntil(
      async () => (await runtime.bus.events(generationId, { everyEpoch: true })).some(isOutcomeUnknownPause),
      'the takeover to ask the outcome-unknown question',
      { timeoutMs: 60_000 },
    );
  } finally {
    await writeFile(`${files.hold}.go`, 'go\n');
    stalled.process.kill('SIGCONT');
  }
  // It wakes, runs the rest of the refund body (its side effect cannot be taken back), and stops.
  const outcome = await stalled
    .waitForLine(new RegExp(`^job \\S+ ${generationId}$`), 30_000)
    .catch((error: Error) => error.message);
  const refunds = async () =>
    (await readSideEffects(files.sideEffects)).filter((effect) => effect.tool === 'issue_refund');
  return { runtime, name, queue, generationId, stalled, successor, outcome, files, refunds };
}

describe('a job holder whose lease lapsed (SIGSTOP past the ack wait inside a tool body), then SIGCONT', () => {
  it('writes nothing once it wakes: no event, no model call, the successor’s question stays listed', async () => {
    const { runtime, name, generationId, stalled, outcome, files, refunds } = await stallPastTakeover();
    const every = await runtime.bus.events(generationId, { everyEpoch: true });
    const resumeRun = every.filter((event) => event.run !== 'start');
    // Its epoch logged what it did before it stopped, and nothing after the lapse.
    expect(resumeRun.filter((event) => epochOf(event) === 1).map((event) => event.event)).toEqual([
      'resumed',
      'tool_started',
    ]);
    expect(every.filter((event) => event.event === 'completed')).toEqual([]);
    // It called no model: the only call of this generation's resume would have come after the refund.
    expect(await modelCallsOf(files.modelCalls, stalled.process.pid)).toBe(0);
    // The question its successor asked is still waiting, and stored, and listed.
    const question = every.findLast(isOutcomeUnknownPause);
    expect(epochOf(question as GenerationEvent)).toBeGreaterThanOrEqual(2);
    const listed = await runtime.pending({ agent: name });
    expect(listed.map((entry) => entry.generationId)).toEqual([generationId]);
    expect(listed[0]?.inputRequests.map((request) => request.metadata?.['outcome_unknown'])).toEqual([true]);
    const stored = await runtime.bus.checkpoints.load(generationId);
    expect(stored?.checkpoint.input_requests.map((request) => request.tool_call_id)).toEqual(['call_refund']);
    // The refund body ran once, in the stalled worker, after it woke.
    expect((await refunds()).map((effect) => effect.pid)).toEqual([stalled.process.pid]);
    expect(outcome).toBe(`job fenced ${generationId}`);
  }, 180_000);

  it('a result it logged just as it lapsed survives the takeover: answering the question `true` reuses it, the body never runs again', async () => {
    const { runtime, queue, generationId, stalled, successor, refunds } = await stallPastTakeover();
    // The window a lease check cannot close: the holder checked its lease just before the takeover
    // was written, and its `tool_completed` landed just after the takeover read the log. Written
    // here as that holder would have written it (epoch 1 of the resume run, the index after its
    // `tool_started`), with the deployment's key.
    const every = await runtime.bus.events(generationId, { everyEpoch: true });
    const started = every.find(
      (event) => event.event === 'tool_started' && event.run !== 'start' && epochOf(event) === 1,
    ) as GenerationEvent;
    await runtime.bus.publish({
      ...started,
      id: `${generationId}:${started.run}:${started.index + 1}`,
      event: 'tool_completed',
      index: started.index + 1,
      time: new Date().toISOString(),
      data: { tool_call_id: 'call_refund', tool_name: 'issue_refund', result: { refunded: 30 }, is_error: false },
    });
    // The person, told to answer once the stalled worker was fenced, says run it again.
    await runtime.answerLater(generationId, { call_refund: true }, { queue });
    const completed = new RegExp(`^job completed ${generationId}$`);
    await Promise.any([stalled, successor].map((child) => child.waitForLine(completed, 60_000)));
    expect((await refunds()).length).toBe(1);
    const latest = await runtime.bus.events(generationId);
    expect(latest.at(-1)?.event).toBe('completed');
    const reruns = latest.filter(
      (event) => event.event === 'tool_started' && event.data.tool_call_id === 'call_refund' && event.data.attempt > 1,
    );
    expect(reruns).toEqual([]);
  }, 180_000);
});
