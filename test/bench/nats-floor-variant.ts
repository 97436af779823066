import { randomUUID } from 'node:crypto';
import { DiscardPolicy, type JetStreamClient, jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { connect, nanos } from '@nats-io/transport-node';
import { createBareSteps } from './bare-sdk-loop.js';
import type { CycleVariant } from './cycle-variants.js';
import { expectBareCycle } from './expect-bare-cycle.js';

const STREAM = 'BENCH_FLOOR_EVENTS';
const CLAIMS = 'BENCH_FLOOR_CLAIMS';
const BUCKET = 'bench_floor_checkpoints';

/**
 * The bare loop plus only the NATS writes that make a pause durable, a resume exclusive and a
 * tool's intent known, in the order a durable pause needs them: each transition published to a
 * file-backed stream with a message id (pipelined; acks awaited before a tool body runs, after
 * its intent, and at each stop), the paused state put in KV before the pause is announced, and a
 * resume claimed by one write to a write-once subject. The same 12 messages a cycle of Interlude
 * sends, with none of Interlude's code: the distributed variant's floor. No XState, no spans.
 */
export async function natsFloorVariant(baseURL: string, servers: string): Promise<CycleVariant> {
  const connection = await connect({ servers, name: 'bench-floor', noAsyncTraces: true });
  const manager = await jetstreamManager(connection);
  await manager.streams.add({
    name: STREAM,
    subjects: ['bench.floor.>'],
    storage: StorageType.File,
    duplicate_window: nanos(60 * 60 * 1_000),
  });
  await manager.streams.add({
    name: CLAIMS,
    subjects: ['bench.claims.>'],
    storage: StorageType.File,
    max_msgs_per_subject: 1,
    discard: DiscardPolicy.New,
    discard_new_per_subject: true,
  });
  const client: JetStreamClient = jetstream(connection);
  const kv: KV = await new Kvm(client).create(BUCKET, { history: 1 });
  const steps = createBareSteps(baseURL);
  const name = 'floor: bare loop + NATS writes';

  /** One run's event publishes: sent at once, acknowledged together at `flush`. */
  function events(generationId: string, run: string) {
    let index = 0;
    let inFlight: Promise<unknown>[] = [];
    return {
      emit(event: string, data: unknown) {
        const id = `${generationId}:${run}:${index}`;
        const payload = JSON.stringify({ version: 1, id, event, generation_id: generationId, run, index, data });
        inFlight.push(client.publish(`bench.floor.${generationId}`, payload, { msgID: id }));
        index += 1;
      },
      async flush() {
        const pending = inFlight;
        inFlight = [];
        await Promise.all(pending);
      },
    };
  }

  return {
    name,
    async cycle(ticketId) {
      const before = { ...steps.work.runs };
      const generationId = randomUUID();
      const start = events(generationId, 'start');
      start.emit('started', { ticket: ticketId });
      const turn = await steps.firstCall(ticketId);
      start.emit('model_responded', { messages: turn.messages.slice(-1) });
      start.emit('tool_started', { tool_call_id: 'call_lookup' });
      await start.flush();
      const { saved, prompt } = steps.pauseTools(turn);
      start.emit('tool_completed', { tool_call_id: 'call_lookup' });
      await kv.put(generationId, saved);
      start.emit('input_requested', { prompt });
      await start.flush();

      // The resume holds the paused state as the caller does (the checkpoint it was handed).
      await client.publish(`bench.claims.${generationId}.0`, 'claim');
      const resume = events(generationId, 'resume');
      resume.emit('resumed', { answered_tool_calls: ['call_refund'] });
      resume.emit('tool_started', { tool_call_id: 'call_refund' });
      await resume.flush();
      const resumed = steps.resumeTools(saved, true);
      resume.emit('tool_completed', { tool_call_id: 'call_refund' });
      const text = await steps.finalCall(resumed);
      resume.emit('model_responded', { text });
      resume.emit('completed', { text });
      await resume.flush();
      expectBareCycle(name, steps.work, before, { prompt, text });
    },
    async close() {
      await manager.streams.delete(STREAM);
      await manager.streams.delete(CLAIMS);
      await kv.destroy();
      await connection.drain();
    },
  };
}
