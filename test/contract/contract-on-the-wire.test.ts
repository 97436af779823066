import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { aesGcmCodec, createWorker, natsBus, type PayloadCodec } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { connect, headers, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defineDesk } from '../support/gateway-desk-agents.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { defineWireAgent } from '../support/wire-agents.js';
import { ASYNCAPI_PATH } from './asyncapi-document.js';
import { answerQuestions, type ContractDocument } from './contract-client.js';

/** A channel of the document, ready to match a subject and check a message. */
interface Channel {
  id: string;
  subject: RegExp;
  /** How many parts of its address are open: of two channels that match, the one with fewer is meant. */
  open: number;
  validate: ValidateFunction;
  headers: ValidateFunction | undefined;
}

const KEY = 'contract-test-checkpoint-key-0001';
const PAYLOAD_KEY = Buffer.alloc(32, 7).toString('base64');
const nats = usePrivateNatsServer('interlude-contract');
const text = readFileSync(ASYNCAPI_PATH, 'utf8');
const contract = JSON.parse(text) as ContractDocument & Record<string, unknown>;
let channels: Channel[] = [];
let tap: NatsConnection;
const captured: Msg[] = [];

beforeAll(async () => {
  // The document as any AsyncAPI tool reads it: the parser must accept it whole.
  const { document, diagnostics } = await new Parser().parse(text);
  expect(diagnostics.filter((diagnostic) => diagnostic.severity <= 1)).toEqual([]);
  if (document === undefined) throw new Error('the AsyncAPI parser refused the document');
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
  ajv.addSchema({ components: contract['components'] }, 'contract');
  const messageOf = (ref: string) =>
    (contract['components'] as { messages: Record<string, { payload: { $ref: string }; headers?: unknown }> }).messages[
      ref.replace('#/components/messages/', '')
    ];
  channels = document
    .channels()
    .all()
    .map((channel) => {
      const [message] = Object.values(
        (contract.channels[channel.id()] as unknown as { messages: Record<string, { $ref: string }> }).messages,
      );
      const spec = messageOf(message?.$ref ?? '');
      if (spec === undefined) throw new Error(`channel ${channel.id()} has no message`);
      // Names take their defaults (this bus has no prefix); ids and names of agents are open.
      const parameters = (contract.channels[channel.id()]?.parameters ?? {}) as Record<string, { default?: string }>;
      const parts = (channel.address() ?? '').split(/(\{[a-z_]+\})/).map((part) => {
        const fixed = part.startsWith('{') ? parameters[part.slice(1, -1)]?.default : part;
        return fixed === undefined ? undefined : fixed.replace(/[.$]/g, '\\$&');
      });
      const pattern = parts.map((part) => part ?? '[^.]+').join('');
      return {
        id: channel.id(),
        subject: new RegExp(`^${pattern}$`),
        open: parts.filter((part) => part === undefined).length,
        validate: ajv.compile({ $ref: `contract${spec.payload.$ref}` }),
        headers: spec.headers === undefined ? undefined : ajv.compile(spec.headers as object),
      };
    });
  tap = await connect({ servers: nats.server.url });
  tap.subscribe('>', {
    callback: (_error, message) => {
      captured.push(message);
    },
  });
  await tap.flush();
});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await tap?.close();
});

/**
 * A runtime and a worker of `queue` on the test's server, with the `wire` agent when `wire` is set
 * (a worker meets the deadlines of every agent of its runtime: the first test's must not, since a
 * due timer was handed to the pull a stopped worker had left on the agent's timer consumer, and
 * met only after the ack wait, like the jobs above).
 */
async function deployment(
  queue: string,
  { codec, wire: servesWire = false }: { codec?: PayloadCodec; wire?: boolean } = {},
): Promise<{
  runtime: Runtime;
  desk: ReturnType<typeof defineDesk>;
  wire: ReturnType<typeof defineWireAgent> | undefined;
}> {
  const runtime = createRuntime({
    bus: natsBus({ servers: nats.server.url, onError: () => undefined, ...(codec !== undefined && { codec }) }),
    checkpointKey: KEY,
  });
  const desk = defineDesk(runtime);
  const wire = servesWire ? defineWireAgent(runtime) : undefined;
  const worker = createWorker({ runtime, agents: wire === undefined ? [desk] : [desk, wire], queue });
  // The worker stops before its runtime closes the connection: no pull of its is left to the next test.
  closers.push(async () => {
    await worker.stop();
    await runtime.close();
  });
  await worker.ready;
  return { runtime, desk, wire };
}

async function lastEventIs(runtime: Runtime, generationId: string, name: string): Promise<void> {
  await expect
    .poll(async () => (await runtime.bus.events(generationId)).map((event) => event.event).at(-1), { timeout: 15_000 })
    .toBe(name);
}

async function completion(runtime: Runtime, generationId: string): Promise<void> {
  await expect
    .poll(async () => (await runtime.bus.events(generationId)).map((event) => event.event).at(-1), { timeout: 15_000 })
    .toBe('completed');
}

describe('the wire contract, on the wire', () => {
  it('lets a Node client with only the contract, a NATS client and node:crypto answer a confirm and a text question', async () => {
    const { runtime, desk } = await deployment('agents');
    const client = await connect({ servers: nats.server.url });
    const answering = await answerQuestions(client, contract, KEY, (question) =>
      question.kind === 'confirm' ? true : question.kind === 'text' ? 'Damaged in transit' : undefined,
    );
    try {
      const confirm = await desk.approve().generateLater();
      const text = await desk.explain().generateLater();
      await completion(runtime, confirm.generationId);
      await completion(runtime, text.generationId);
      expect(answering.answered.sort()).toEqual([confirm.generationId, text.generationId].sort());
      // Each tool ran with the client's answer.
      const results = async (generationId: string) =>
        (await runtime.bus.events(generationId)).flatMap((event) =>
          event.event === 'tool_completed' ? [event.data.result] : [],
        );
      expect(await results(confirm.generationId)).toEqual([{ approve_refund: true }]);
      expect(await results(text.generationId)).toEqual([{ note_reason: 'Damaged in transit' }]);
    } finally {
      answering.stop();
      await client.close();
    }
  });

  it('describes every message Interlude sent, on every channel, plain and sealed: each validates against its channel’s schema', async () => {
    // A queue of its own: on the first test's queue, a worker started right after that test's
    // worker stopped was not handed its job within 15 s in this file (with the tap on `>`), which
    // a plain stop-and-start on the suite's server does not show; most likely as with the timers
    // (see `deployment`): the job went to a pull the stopped worker left on the queue's consumer.
    const { runtime, desk, wire } = await deployment('wire', { wire: true });
    if (wire === undefined) throw new Error('no wire agent');
    // A question answered by a worker: events, a job, claims, a checkpoint, a pending record.
    const paused = await desk.approve().generateLater({ queue: 'wire' });
    await lastEventIs(runtime, paused.generationId, 'input_requested');
    await runtime.answerLater(paused.generationId, { call_approve_refund: true }, { queue: 'wire' });
    await completion(runtime, paused.generationId);
    // A question that expires (a timer, met by the worker), a model that fails, a tool budget
    // spent, a question cancelled.
    const expiring = await wire.expire().generateNow();
    await expect(wire.fail().generateNow()).rejects.toThrow();
    expect((await wire.loop().generateNow()).status).toBe('tool_turns_exceeded');
    const held = await wire.hold().generateNow();
    await runtime.cancel(held.generationId, 'withdrawn');
    await lastEventIs(runtime, expiring.generationId, 'completed');
    // A job no key of the deployment signed: refused and dead-lettered.
    const forged = {
      version: 1,
      id: 'forged-job-1',
      kind: 'generate',
      agent: 'wire',
      action: 'fail',
      generation_id: 'gen_forged',
      key_id: '00000000',
      signature: 'A'.repeat(43),
    };
    const forgedHeaders = headers();
    forgedHeaders.set('Nats-Msg-Id', forged.id);
    await tap.request('interlude.jobs.wire', JSON.stringify(forged), { headers: forgedHeaders, timeout: 5_000 });
    await expect.poll(async () => (await runtime.bus.jobs.deadLetters('wire')).length, { timeout: 15_000 }).toBe(1);

    // The same question and answer on a bus with a codec: every sealable field sealed.
    const sealed = await deployment('sealed', { codec: aesGcmCodec({ keys: [PAYLOAD_KEY] }) });
    const quiet = await sealed.desk.approve().generateLater({ queue: 'sealed' });
    await lastEventIs(sealed.runtime, quiet.generationId, 'input_requested');
    await sealed.runtime.answerLater(quiet.generationId, { call_approve_refund: true }, { queue: 'sealed' });
    await completion(sealed.runtime, quiet.generationId);
    await tap.flush();

    const seen = new Map<string, number>();
    const sealedSeen = new Set<string>();
    const problems: string[] = [];
    for (const message of captured) {
      // NATS's own protocol (JetStream API requests, replies, acks, flow control) is not Interlude's.
      if (/^(\$JS\.|_INBOX\.|\$SYS\.)/.test(message.subject)) continue;
      // A consumer's delivery of a stored message (a reply to ack): its publish was captured already.
      if (message.reply?.startsWith('$JS.ACK.')) continue;
      // A KV delete or purge marker carries no body, only its operation.
      if (message.data.length === 0 && message.headers?.get('KV-Operation')) continue;
      if (message.data.length === 0) {
        problems.push(`${message.subject}: an empty message`);
        continue;
      }
      const matching = channels
        .filter((channel) => channel.subject.test(message.subject))
        .sort((a, b) => a.open - b.open);
      const channel = matching[0];
      if (channel === undefined || matching[1]?.open === channel.open) {
        problems.push(`${message.subject}: ${matching.length} channels match`);
        continue;
      }
      seen.set(channel.id, (seen.get(channel.id) ?? 0) + 1);
      if (message.string().includes('"sealed":"aes-256-gcm"')) sealedSeen.add(channel.id);
      if (!channel.validate(message.json())) {
        problems.push(`${message.subject} (${channel.id}): ${JSON.stringify(channel.validate.errors)}`);
      }
      const headers = Object.fromEntries(
        (message.headers?.keys() ?? []).map((name) => [name, message.headers?.get(name)]),
      );
      if (channel.headers !== undefined && !channel.headers(headers)) {
        problems.push(`${message.subject} headers: ${JSON.stringify(channel.headers.errors)}`);
      }
    }
    expect(problems).toEqual([]);
    // Every channel of the document carried a message: a channel added without a test of it fails here.
    expect(channels.map((channel) => channel.id).filter((id) => !seen.has(id))).toEqual([]);
    // And the sealed forms of what a codec seals went through the schemas too.
    for (const id of [
      'event_started',
      'event_input_requested',
      'event_completed',
      'jobs',
      'claims',
      'checkpoints',
      'pending',
    ]) {
      expect(sealedSeen.has(id), `a sealed message on ${id}`).toBe(true);
    }
  });
});
