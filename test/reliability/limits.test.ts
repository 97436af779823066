import { createWorker, natsBus, natsNames, type Worker } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, defineAgent, type Runtime, tool } from '@interlude/core';
import type { JobOutcome } from '@interlude/core/internal';
import { scriptedProvider } from '@interlude/core/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, headers } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { recordFigure } from '../support/reliability-figures.js';
import { waitUntil } from '../support/reliability-wait.js';

const { jobsStream: JOBS_STREAM, jobSubject } = natsNames();

let runtime: Runtime;
let worker: Worker | undefined;
const outcomes: { generationId: string; outcome: JobOutcome }[] = [];
let exports = 0;

beforeAll(() => {
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'reliability-limits', onError: () => undefined }),
  });
  defineAgent({
    name: 'exporter',
    runtime,
    provider: scriptedProvider(
      Array.from({ length: 5 }, () => ({ toolCalls: [{ id: 'call_export', name: 'export_rows', arguments: {} }] })),
    ),
    actions: {
      handle: () => ({
        message: 'Export every row',
        tools: [
          tool({
            name: 'export_rows',
            description: 'Export the whole table',
            input: z.object({}),
            run: () => {
              exports += 1;
              return 'x'.repeat(2_000_000); // twice the server's max_payload (1 MB)
            },
          }),
        ],
      }),
    },
  });
});

afterEach(async () => {
  await worker?.stop();
});

afterAll(async () => {
  await runtime?.close();
});

function startWorker(queue: string) {
  worker = createWorker({
    runtime,
    queue,
    onJob: (job, outcome) => void outcomes.push({ generationId: job.generation_id, outcome }),
  });
  return worker.ready;
}

/** Messages the job stream holds on `queue`'s subject. */
async function jobsOn(queue: string): Promise<number> {
  const connection = await connect({ servers: inject('natsUrl') });
  try {
    const info = await (await jetstreamManager(connection)).streams.info(JOBS_STREAM, {
      subjects_filter: jobSubject(queue),
    });
    return info.state.subjects?.[jobSubject(queue)] ?? 0;
  } finally {
    await connection.close();
  }
}

describe('limits fail once, loudly, on a real nats-server', () => {
  it('a tool result bigger than max_payload: the body runs once, the generation ends failed with payload_too_large, the job is not delivered again', async () => {
    const queue = uniqueId('limits');
    await startWorker(queue);
    const { generationId } =
      (await runtime.agents.get('exporter')?.generation('handle', {}).generateLater({ queue })) ?? {};
    await waitUntil(() => outcomes.some((entry) => entry.generationId === generationId), 'the job', {
      timeoutMs: 20_000,
    });
    // Long enough for a redelivery to show, had there been one (the ack wait is not waited out: it was acknowledged).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ours = outcomes.filter((entry) => entry.generationId === generationId);
    expect(ours.map((entry) => entry.outcome.status)).toEqual(['failed']);
    expect(ours[0]?.outcome.status === 'failed' && ours[0].outcome.error).toMatchObject({ code: 'payload_too_large' });
    expect(exports).toBe(1);
    const log = await runtime.bus.events(generationId ?? '');
    expect(log.at(-1)).toMatchObject({ event: 'failed', data: { error: { code: 'payload_too_large' } } });
    expect(await jobsOn(queue)).toBe(0);
    expect(await runtime.bus.jobs.deadLetters(queue)).toEqual([]);
    recordFigure('limits_payload', {
      toolRuns: exports,
      deliveries: ours.length,
      events: log.map((event) => event.event),
    });
  });

  it('a job nested 100,000 deep: refused at once with invalid_checkpoint, dead-lettered as the bytes it came as, never delivered again', async () => {
    const queue = uniqueId('limits');
    await startWorker(queue);
    const generationId = uniqueId('gen');
    // Written by hand: JSON.stringify itself cannot write a value this deep.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const raw = `{"version":1,"id":"${uniqueId('job')}","kind":"resume","agent":"exporter","action":"handle","params":{},"generation_id":"${generationId}","checkpoint":{"version":2,"messages":${deep}},"answers":{}}`;
    const connection = await connect({ servers: inject('natsUrl') });
    const messageHeaders = headers();
    messageHeaders.set('Nats-Msg-Id', generationId);
    await connection.request(jobSubject(queue), raw, { headers: messageHeaders, timeout: 5_000 });
    await connection.close();

    await waitUntil(async () => (await runtime.bus.jobs.deadLetters(queue)).length === 1, 'the dead letter', {
      timeoutMs: 20_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ours = outcomes.filter((entry) => entry.generationId === generationId);
    expect(ours.map((entry) => entry.outcome.status)).toEqual(['refused']);
    const [letter] = await runtime.bus.jobs.deadLetters(queue);
    expect(letter?.reason.code).toBe('invalid_checkpoint');
    expect(letter?.attempt).toBe(1);
    expect(Buffer.from(letter?.raw ?? '', 'base64').toString()).toBe(raw);
    expect(await jobsOn(queue)).toBe(0);
    // Too deep to check its signature: nothing is announced for it in the generation (a forger
    // could have written it), it is only kept among the dead letters.
    expect(await runtime.bus.events(generationId)).toEqual([]);
  });
});
