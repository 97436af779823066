import { randomBytes } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { connect } from '@nats-io/transport-node';
import { describe, expect, inject, it } from 'vitest';
import { aesGcmCodec } from './codec/aes-gcm-codec.js';
import { natsBus } from './nats-bus.js';
import {
  describeBusConformance,
  eventually,
  sampleEvent,
  sampleJob,
  startCuttableProxy,
  uniqueId,
} from './testing/index.js';

describeBusConformance('natsBus', {
  create: () => natsBus({ servers: inject('natsUrl'), name: 'conformance', onError: () => undefined }),
  createWithShortAckWait: () =>
    natsBus({ servers: inject('natsUrl'), name: 'conformance-lapsing', jobAckWaitMs: 1_000, onError: () => undefined }),
});

// Everything the contract asks, again with every payload sealed and opened on the way.
const codecKey = randomBytes(32).toString('base64');
describeBusConformance('natsBus with a payload codec', {
  create: () =>
    natsBus({
      servers: inject('natsUrl'),
      name: 'conformance-codec',
      codec: aesGcmCodec({ keys: [codecKey] }),
      onError: () => undefined,
    }),
  createWithShortAckWait: () =>
    natsBus({
      servers: inject('natsUrl'),
      name: 'conformance-codec-lapsing',
      codec: aesGcmCodec({ keys: [codecKey] }),
      jobAckWaitMs: 1_000,
      onError: () => undefined,
    }),
});

describe('natsBus onError', () => {
  it('hears a subscriber that failed, with the event it failed on', async () => {
    const reports: string[] = [];
    const bus = natsBus({
      servers: inject('natsUrl'),
      onError: (error, context) => void reports.push(`${context}: ${(error as Error).message}`),
    });
    const generationId = uniqueId('gen');
    const subscription = await bus.subscribe({ generationId }, () => {
      throw new Error('handler failed');
    });
    const event = sampleEvent(generationId, 0, 'started');
    await bus.publish(event);
    await eventually(() => reports.length === 1, 'the report');
    expect(reports).toEqual([`subscriber of started ${event.id}: handler failed`]);
    await subscription.unsubscribe();
    await bus.close();
  });
});

describe('natsBus pending index, listed again and again (a metrics gauge lists it at every collection)', () => {
  it("gives a record's order without opening its questions (sealed with a key this bus lacks), and reports a record it cannot believe once per write", async () => {
    const reports: string[] = [];
    const writer = natsBus({
      servers: inject('natsUrl'),
      codec: aesGcmCodec({ keys: randomBytes(32).toString('base64') }),
    });
    const reader = natsBus({
      servers: inject('natsUrl'),
      codec: aesGcmCodec({ keys: randomBytes(32).toString('base64') }),
      onError: (error, context) => void reports.push(`${context}: ${(error as Error).message}`),
    });
    const sealed = uniqueId('gen');
    const bad = uniqueId('gen');
    const ours = async () =>
      (await reader.pending?.entries())?.filter((entry) => [sealed, bad].includes(entry.generationId));
    const oursReported = () => reports.filter((report) => report.includes(sealed) || report.includes(bad));
    await writer.pending?.put({
      version: 1,
      generation_id: sealed,
      agent: 'desk',
      action: 'refund',
      claim_slot: 0,
      input_requests: [{ kind: 'confirm', prompt: 'Refund $30?', tool_call_id: 'call_1', tool_name: 'issue_refund' }],
      asked_at: '2026-01-01T00:00:00.000Z',
    });
    const client = await connect({ servers: inject('natsUrl') });
    const bucket = await new Kvm(client).open('interlude_pending');
    try {
      await bucket.put(bad, JSON.stringify({ version: 1, generation_id: bad }));
      for (let listing = 0; listing < 3; listing++) {
        expect(await ours()).toEqual(
          expect.arrayContaining([
            { generationId: sealed, askedAt: '2026-01-01T00:00:00.000Z' },
            { generationId: bad, askedAt: undefined },
          ]),
        );
      }
      expect(oursReported()).toEqual([
        `pending record of ${bad} not readable: the pending record under ${bad} is not a version 1 pending record`,
      ]);
      // Written again, it is another write: said again, once.
      await bucket.put(bad, JSON.stringify({ version: 1, generation_id: 'gen_other' }));
      for (let listing = 0; listing < 2; listing++) await ours();
      expect(oursReported()).toHaveLength(2);
      expect(oursReported()[1]).toContain('names another generation');
    } finally {
      await writer.pending?.remove(sealed);
      await writer.pending?.remove(bad);
      await client.close();
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});

describe('natsBus across a dropped connection', () => {
  it('sends what a dropped connection lost again once it reconnects, in order, not after the request timeout, and stores each once', async () => {
    const proxy = await startCuttableProxy(inject('natsUrl'));
    // A timeout far past this test's own limit: only a write sent again on reconnect can finish.
    const statuses: string[] = [];
    const bus = natsBus({
      servers: proxy.url,
      requestTimeoutMs: 600_000,
      onError: () => undefined,
      onStatus: (status) => statuses.push(status.ok ? 'ok' : (status.reason ?? '')),
    });
    const watcher = natsBus({ servers: inject('natsUrl'), onError: () => undefined });
    const generationId = uniqueId('gen');
    const heard: string[] = [];
    const subscription = await watcher.subscribe({ generationId }, (event) => {
      if (!heard.includes(event.id)) heard.push(event.id); // a retried publish may be heard twice
    });
    const events = Array.from({ length: 7 }, (_, index) => sampleEvent(generationId, index));
    const publish = (from: number, to: number) =>
      Promise.all(events.slice(from, to).map((event) => bus.publish(event))); // pipelined, as a run does
    await publish(0, 1);

    proxy.cut();
    // Some written in the same tick (they leave on a socket that is already gone), the rest once
    // the client knows it lost the connection, the first still unanswered: all must land in
    // publish order.
    const early = Promise.all([
      publish(1, 4),
      bus.jobs.enqueue(uniqueId('queue'), sampleJob({ generation_id: generationId })),
    ]);
    await eventually(() => statuses.some((status) => status.startsWith('disconnected')), 'the disconnect');
    await Promise.all([early, publish(4, 7)]);

    const ids = events.map((event) => event.id);
    expect((await bus.events(generationId)).map((stored) => stored.id)).toEqual(ids);
    await eventually(() => heard.length === ids.length, 'every event heard');
    expect(heard).toEqual(ids); // stored, and delivered, in the order they were published
    await subscription.unsubscribe();
    await Promise.all([bus.close(), watcher.close()]);
    await proxy.close();
  }, 30_000);
});
