import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { createWorker, type NatsBusOptions, natsBus, type Worker } from '@interlude/bus';
import { postgresContextStore } from '@interlude/bus/postgres';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime, type GenerationResponse, hasContext } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { createWireServer } from '@interlude/providers/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { connect } from '@nats-io/transport-node';
import { expect } from 'vitest';
import { createScratchSchema } from '../context/postgres-schema.js';
import { startScript } from './bus-child-process.js';
import { rawLastStored, rawStored, rawStoredEvents } from './bus-raw-log.js';
import { spanText } from './reliability-canary.js';
import { defineVaultAgent, textTurn, toolTurn, VAULT_MODEL, type VaultWitness } from './secret-canary-agent.js';

/**
 * Where the scenario runs: the test's NATS, options for `natsBus` and environment variables for
 * the other process it starts (the payload codec's test gives both the same key, and expects the
 * raw sinks to show no result, answer or message text at all). Conversations go to a scratch
 * PostgreSQL schema of the scenario's own.
 */
export interface SecretCanaryOptions {
  natsUrl: string;
  busOptions?: Partial<NatsBusOptions>;
  childEnvironment?: Record<string, string>;
}

/**
 * A deploy token and the person's own key of an object answer, random per run (so no other
 * test's bytes hold them), with quotes, a backslash, a slash, a plus and letters outside ASCII,
 * so that every encoding of them differs from their text.
 */
export function canarySecrets(): { token: string; key: string } {
  return {
    token: `Tok-${randomBytes(6).toString('hex')}-Ünï "kéy" /+? \\ ??`,
    key: `Dev-${randomBytes(6).toString('hex')}-Ørsted`,
  };
}

/** The sinks read raw off the NATS server, with a plain client: what its operator could read. */
export const RAW_NATS_SINKS = [
  'checkpoint bucket',
  'dead letters',
  'every NATS message',
  'pending index',
  'stored claims',
  'stored events',
  'stored jobs',
  'stored timers',
] as const;

/**
 * Raw sinks that carry no payload at all, only what routes and identifies a record (a timer is a
 * generation id, agent, action, claim slot and due time, signed: a key id and an HMAC over those):
 * nothing there is scrubbed or sealed because nothing there could hold a secret, which the tests
 * check by the record's keys.
 */
export const PAYLOAD_FREE_SINKS: readonly string[] = ['stored timers'];

/** The keys of a stored timer, and nothing else (the runtime signs its timers: `key_id`, `signature`). */
export const TIMER_KEYS = [
  'action',
  'agent',
  'claim_slot',
  'due_at',
  'generation_id',
  'key_id',
  'signature',
  'version',
];

/** What a run of the scenario left behind: every sink's bytes as text, by name, and what the tools saw. */
export interface SecretCanaryRun {
  sinks: Record<string, string>;
  witness: VaultWitness;
  /** What a process that never saw the secret got when it answered the scrubbed option. */
  elsewhere: string;
}

/**
 * Runs the vault agent through every path a secret can take, on real parts: the official
 * Anthropic SDK against the wire server, natsBus on the test's nats-server, OpenTelemetry with
 * `captureContent: true`, the PostgreSQL context store, a worker resuming from a job. Generation
 * A asks for the secret (answered in-process), fails a tool with it, asks a follow-up built from
 * it (a process without the secret is refused, this one answers), asks to confirm (answered
 * through a job, queued twice: the second copy is refused to the dead letters), asks again in the
 * job's run (its pause goes to the claim log with its checkpoint), is answered here and completes. Generation B, in the same conversation, asks again and its next
 * model call fails with an error that quotes the secret back. Returns every sink as text.
 */
export async function runSecretCanaryScenario(
  secret: { token: string; key: string },
  options: SecretCanaryOptions,
): Promise<SecretCanaryRun> {
  const sinks: Record<string, string[]> = {};
  const record = (sink: string, text: string | undefined) => {
    const texts = sinks[sink] ?? [];
    texts.push(text ?? '');
    sinks[sink] = texts;
  };
  const tap = await connect({ servers: options.natsUrl });
  tap.subscribe('>', {
    callback: (_error, message) => record('every NATS message', `${message.subject} ${message.string()}`),
  });
  await tap.flush();
  const server = await createWireServer();
  const tracing = createInMemoryTracing();
  const runtime = createRuntime({
    bus: natsBus({ servers: options.natsUrl, ...options.busOptions }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider, captureContent: true, openInference: true }),
  });
  const schema = await createScratchSchema();
  const store = postgresContextStore({ pool: schema.pool }, { schema: schema.name });
  const witness: VaultWitness = {};
  const agent = defineVaultAgent({
    runtime,
    provider: anthropic({ model: VAULT_MODEL, baseURL: server.url, apiKey: 'test', maxRetries: 0 }),
    context: hasContext(store, { contextual: () => 'vault:device-7' }),
    witness,
  });
  const queue = uniqueId('queue');
  let worker: Worker | undefined;
  const answer = { token: secret.token, [secret.key]: 'laptop' };
  const storedCheckpoint = async (response: GenerationResponse) => {
    record('responses', JSON.stringify(response));
    const subject = `$KV.interlude_checkpoints.${response.generationId}`;
    record('checkpoint bucket', await rawLastStored(options.natsUrl, 'KV_interlude_checkpoints', subject));
    const listed = `$KV.interlude_pending.${response.generationId}`;
    record('pending index', await rawLastStored(options.natsUrl, 'KV_interlude_pending', listed));
  };
  try {
    server.enqueue(
      '/v1/messages',
      toolTurn({ id: 'c_enroll', name: 'enroll_device', input: { device: 7 } }),
      toolTurn({ id: 'c_verify', name: 'verify_device' }, { id: 'c_account', name: 'choose_account' }),
      toolTurn({ id: 'c_confirm', name: 'confirm_deploy' }),
      // Asked again, in the job's run: its pause goes to the claim log with the checkpoint.
      toolTurn({ id: 'c_reconfirm', name: 'confirm_deploy' }),
      textTurn('Device 7 is enrolled and deployed.'),
      toolTurn({ id: 'c_enroll', name: 'enroll_device', input: { device: 7 } }),
      // An upstream that quotes a prompt back in its error: the secret reaches the error only
      // because this test puts it there, which is what a leaky proxy would do.
      () => ({
        status: 400,
        json: { type: 'error', error: { type: 'invalid_request_error', message: leakyRefusal(secret) } },
      }),
    );
    const asked = await agent.enroll({ device: 7 }).generateNow();
    await storedCheckpoint(asked);
    const followUp = await runtime.answer(asked.generationId, { c_enroll: answer });
    await storedCheckpoint(followUp);
    const picked = followUp.inputRequests[0]?.optionValues()[0];
    const elsewhere = startScript('secret-option-resume-process.ts', {
      NATS_URL: options.natsUrl,
      GENERATION_ID: asked.generationId,
      ANSWERS: JSON.stringify({ c_account: picked }),
      ...options.childEnvironment,
    });
    const elsewhereLine = await elsewhere.waitForLine(/^(refused|resumed|failed)/, 30_000);
    await elsewhere.stop();
    const confirm = await runtime.answer(asked.generationId, { c_account: picked });
    await storedCheckpoint(confirm);
    // The confirmation expires: its pause's timer, read before a worker holds it.
    // (Read by subject, not through a consumer: a work-queue stream takes no second consumer of it.)
    const timer = `interlude.timers.vault.${asked.generationId}`;
    record('stored timers', await rawLastStored(options.natsUrl, 'INTERLUDE_TIMERS', timer));
    // Twice: one job resumes, the other finds the checkpoint taken and is refused to the dead letters.
    await runtime.answerLater(asked.generationId, { c_confirm: true }, { queue });
    await runtime.answerLater(asked.generationId, { c_confirm: true }, { queue });
    // Read before any worker consumes the queue: a work queue drops a job once it is acknowledged.
    record('stored jobs', await rawLastStored(options.natsUrl, 'INTERLUDE_JOBS', `interlude.jobs.${queue}`));
    worker = createWorker({ runtime, agents: [agent], queue });
    await worker.ready;
    await expect
      .poll(async () => (await runtime.bus.checkpoints.load(asked.generationId))?.checkpoint.input_requests, {
        timeout: 30_000,
      })
      .toMatchObject([{ tool_call_id: 'c_reconfirm' }]);
    await expect.poll(async () => (await runtime.bus.jobs.deadLetters(queue)).length, { timeout: 30_000 }).toBe(1);
    record('dead letters', (await rawStored(options.natsUrl, 'INTERLUDE_DEAD', `interlude.dead.${queue}`)).join('\n'));
    const done = await runtime.answer(asked.generationId, { c_reconfirm: true });
    expect(done.status).toBe('completed');

    const again = await agent.enroll({ device: 7 }).generateNow();
    await storedCheckpoint(again);
    const failure = await runtime.answer(again.generationId, { c_enroll: answer }).then(
      () => new Error('expected the model call to fail'),
      (error: unknown) => error,
    );
    record('errors and causes', errorText(failure));

    for (const generationId of [asked.generationId, again.generationId]) {
      record('stored events', (await rawStoredEvents(options.natsUrl, generationId)).join('\n'));
      const claims = await rawStored(options.natsUrl, 'INTERLUDE_CLAIMS', `interlude.claims.${generationId}.>`);
      record('stored claims', claims.join('\n'));
    }
    record('model requests', JSON.stringify(server.requests.map((request) => request.body)));
    record('spans', tracing.finishedSpans().map(spanText).join('\n'));
    for (const table of ['contexts', 'messages', 'generations']) {
      const { rows } = await schema.pool.query(`SELECT * FROM "${schema.name}".${table}`);
      record('conversation rows', JSON.stringify(rows));
    }
    await tap.flush();
    return {
      sinks: Object.fromEntries(Object.entries(sinks).map(([name, texts]) => [name, texts.join('\n')])),
      witness,
      elsewhere: elsewhereLine,
    };
  } finally {
    await worker?.stop();
    await runtime.close();
    await store.close();
    await schema.drop();
    await tap.close();
    await server.close();
  }
}

/** The refusal a leaky upstream sends: the secret in several forms, as a proxy might log it. */
function leakyRefusal(secret: { token: string; key: string }): string {
  const base64 = Buffer.from(secret.token).toString('base64');
  return `prompt rejected: token ${secret.token}, header Basic ${base64}, key ${encodeURIComponent(secret.key)}`;
}

/**
 * Everything an error shows: message, stack, how it prints (hidden fields, symbol keys, getters,
 * `Map` and `Set` entries, at any depth), its fields, and the same of each cause.
 */
function errorText(error: unknown, depth = 0): string {
  const printed = inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true });
  if (!(error instanceof Error) || depth > 20) return printed;
  const fields = JSON.stringify(Object.fromEntries(Object.entries(error)));
  return [error.message, error.stack, String(error), fields, printed, errorText(error.cause, depth + 1)].join('\n');
}
