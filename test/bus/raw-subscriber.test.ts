import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { eventually } from '@interlude/bus/testing';
import { createRuntime, rebuildCheckpoint } from '@interlude/core';
import { connect } from '@nats-io/transport-node';
import { describe, expect, inject, it } from 'vitest';
import { defineRefundAgent } from '../support/bus-refund-agent.js';

interface RawEvent {
  subject: string;
  payload: { version: number; id: string; event: string; generation_id: string; data: Record<string, unknown> };
}

describe('a plain NATS client listening on interlude.gen.>', () => {
  it('sees every transition of the refund scenario in order; input_requested carries the requests', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'interlude-raw-'));
    // Any service in any language can do this: no Interlude code on this side.
    const listener = await connect({ servers: inject('natsUrl') });
    const received: RawEvent[] = [];
    listener.subscribe('interlude.gen.>', {
      callback: (error, message) => {
        if (error === null) received.push({ subject: message.subject, payload: message.json() });
      },
    });
    await listener.flush();

    const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl') }) });
    const support = defineRefundAgent(runtime, { sideEffectsFile: join(directory, 'effects.jsonl') });
    const paused = await support.generation('handle', { ticketId: 42 }).generateNow();
    // The log replayed from JetStream rebuilds exactly the checkpoint stored in KV.
    const stored = await runtime.bus.checkpoints.load(paused.generationId);
    expect(stored?.checkpoint).toEqual(paused.checkpoint);
    // Signed as the runtime signs it: its key, the action's params and the deployment's id.
    expect(stored?.checkpoint.audience).toMatch(/^dep_[0-9a-f]{32}$/);
    const rebuilt = rebuildCheckpoint(await runtime.bus.events(paused.generationId), {
      checkpointKey: runtime.keys,
      params: stored?.params,
      audience: await runtime.audience(),
    });
    expect(rebuilt).toEqual(stored?.checkpoint);
    const done = await runtime.answer(paused.generationId, { call_refund: true });
    expect(done.status).toBe('completed');

    const log = await runtime.bus.events(paused.generationId);
    const ours = () => received.filter((event) => event.payload.generation_id === paused.generationId);
    await eventually(() => ours().length === log.length, 'every transition on the raw subscription');
    expect(ours().map((event) => event.payload)).toEqual(log);
    expect(ours().map((event) => event.subject)).toEqual(
      log.map((event) => `interlude.gen.support.handle.${paused.generationId}.${event.event}`),
    );
    const names = log.map((event) => event.event);
    expect(names[0]).toBe('started');
    expect(names.indexOf('input_requested')).toBeLessThan(names.indexOf('resumed'));
    expect(names.at(-1)).toBe('completed');
    expect(new Set(log.map((event) => event.id)).size).toBe(log.length);

    const requested = ours().find((event) => event.subject.endsWith('.input_requested'));
    expect(requested?.payload.version).toBe(1);
    expect(requested?.payload.data['input_requests']).toEqual([
      expect.objectContaining({
        kind: 'confirm',
        prompt: 'Refund $30 on order 42?',
        tool_call_id: 'call_refund',
        tool_name: 'issue_refund',
        arguments: { order_id: 42, amount: 30 },
      }),
    ]);

    await listener.close();
    await runtime.close();
    await rm(directory, { recursive: true, force: true });
  });
});
