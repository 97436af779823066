import { EventsExpiredError, natsBus, natsNames } from '@interlude/bus';
import { createRuntime, defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { scriptedProvider } from '@interlude/core/testing';
import { jetstreamManager, type StreamInfo } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ConfiguredNats, scratchDirectory, startConfiguredNats } from '../support/configured-nats.js';
import { recordFigure } from '../support/reliability-figures.js';
import { soakSize } from '../support/soak.js';

const { checkpointStream: CHECKPOINT_STREAM, eventsStream: EVENTS_STREAM, pendingStream: PENDING_STREAM } = natsNames();

/** Run twenty at a time; the long run goes as far as the issue measured storage over. */
const GENERATIONS = soakSize({ short: 2_000, long: 10_000 });
/** The event log's limit in this test: small, so these generations outgrow it many times over (20 in the default run). */
const EVENT_MAX_BYTES = 512 * 1024;

let server: ConfiguredNats;
let runtime: Runtime;

beforeAll(async () => {
  server = await startConfiguredNats(await scratchDirectory('retention'), 'jetstream {}\n');
  runtime = createRuntime({
    bus: natsBus({ servers: server.url, eventMaxBytes: EVENT_MAX_BYTES, onError: () => undefined }),
  });
});

afterAll(async () => {
  await runtime?.close();
  await server?.stop();
});

/** An agent that asks before its one tool runs, so every generation pauses once and is resumed. */
function askingAgent(): AgentBase {
  const model = scriptedProvider();
  return defineAgent({
    name: 'retention',
    runtime,
    provider: {
      ...model,
      call(request, options) {
        const answered = JSON.stringify(request.messages).includes('"tool_use_id":"call_close"');
        model.push(
          answered ? { text: 'Closed.' } : { toolCalls: [{ id: 'call_close', name: 'close_ticket', arguments: {} }] },
        );
        return model.call(request, options);
      },
    },
    actions: {
      handle: () => ({
        message: 'Close the ticket',
        tools: [
          tool({
            name: 'close_ticket',
            description: 'Close it',
            input: z.object({}),
            run: (_, context) => (context.answer === undefined ? InputRequest.confirm('Close it?') : { closed: true }),
          }),
        ],
      }),
    },
  });
}

async function streamInfo(stream: string): Promise<StreamInfo> {
  const connection = await connect({ servers: server.url });
  try {
    return await (await jetstreamManager(connection)).streams.info(stream);
  } finally {
    await connection.close();
  }
}

describe('storage over many generations on natsBus', () => {
  it(`${GENERATIONS} generations, each paused and resumed: no checkpoint of a finished one is left and the log stays within its limit`, async () => {
    const agent = askingAgent();
    const generationIds: string[] = [];
    for (let batch = 0; batch < GENERATIONS / 20; batch += 1) {
      const finished = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const paused = await agent.generation('handle', {}).generateNow();
          const done = await runtime.answer(paused.generationId, { call_close: true });
          expect(done.text).toBe('Closed.');
          return paused.generationId;
        }),
      );
      generationIds.push(...finished);
    }

    // Only the deployment's id is left in the bucket: every checkpoint was removed at completion.
    const bucket = await streamInfo(CHECKPOINT_STREAM);
    expect(bucket.state.messages).toBe(1);
    // Nor a pending record, nor a marker in its place: the index holds only what waits.
    const pendingIndex = await streamInfo(PENDING_STREAM);
    expect(pendingIndex.state.messages).toBe(0);
    expect(await runtime.pending()).toEqual([]);
    const log = await streamInfo(EVENTS_STREAM);
    expect(log.state.bytes).toBeLessThanOrEqual(EVENT_MAX_BYTES);
    expect(log.state.first_seq).toBeGreaterThan(1);

    const first = generationIds[0] as string;
    const last = generationIds.at(-1) as string;
    // Removed whole, long ago, it reads as a generation never seen (a part removed: the next test).
    expect(await runtime.bus.events(first)).toEqual([]);
    const lastEvents = (await runtime.bus.events(last)).map((event) => event.event);
    expect(lastEvents[0]).toBe('started');
    expect(lastEvents.at(-1)).toBe('completed');
    // Its checkpoint is gone with it; answering it again is told it was resumed already.
    expect(await runtime.bus.checkpoints.load(last)).toBeUndefined();
    await expect(runtime.answer(last, { call_close: true })).rejects.toMatchObject({ code: 'already_resumed' });
    recordFigure('retention', {
      generations: GENERATIONS,
      checkpointsLeft: bucket.state.messages - 1,
      pendingRecordsLeft: pendingIndex.state.messages,
      eventLogBytes: log.state.bytes,
      eventLogMessages: log.state.messages,
      eventMaxBytes: EVENT_MAX_BYTES,
    });
  }, 240_000);

  it("a log whose start was removed by the log's limits reads as events_expired", async () => {
    const agent = askingAgent();
    // One generation whose events straddle the head of the stream: its start is removed, its end kept.
    const paused = await agent.generation('handle', {}).generateNow();
    const connection = await connect({ servers: server.url });
    try {
      const manager = await jetstreamManager(connection);
      const { state } = await manager.streams.info(EVENTS_STREAM);
      // Removing everything up to this generation's last message is what a limit does to it.
      await manager.streams.purge(EVENTS_STREAM, { seq: state.last_seq });
    } finally {
      await connection.close();
    }
    const read = await runtime.bus.events(paused.generationId).catch((error: unknown) => error);
    expect(EventsExpiredError.isInstance(read)).toBe(true);
    expect((read as EventsExpiredError).code).toBe('events_expired');
    expect((read as EventsExpiredError).generationId).toBe(paused.generationId);
  });
});
