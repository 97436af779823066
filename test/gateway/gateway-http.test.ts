import { randomBytes } from 'node:crypto';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  GATEWAY_TEST_KEYS,
  lastEventIs,
  openEventStream,
  pausedCalls,
  type ServedGateway,
  serveGateway,
} from '../support/gateway-harness.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { spanText } from '../support/reliability-canary.js';
import { startWorkerBin, type WorkerBin } from '../support/worker-bin-process.js';

const nats = usePrivateNatsServer('gateway-http');
const queue = `gateway-${process.pid}`;
const tracing = createInMemoryTracing();
const tapped: string[] = [];
let tap: NatsConnection;
let served: ServedGateway;
let worker: WorkerBin;

beforeAll(async () => {
  // Everything the server carries, as its operator could read it: events, jobs, checkpoints, claims.
  tap = await connect({ servers: nats.server.url });
  tap.subscribe('>', {
    callback: (_, message) => {
      tapped.push(`${message.subject} ${message.headers?.toString() ?? ''} ${new TextDecoder().decode(message.data)}`);
    },
  });
  served = await serveGateway(nats.server.url, {
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider, captureContent: true }),
    corsOrigins: ['https://desk.example'],
    bodyLimitBytes: 4_096,
    queue,
  });
  worker = startWorkerBin('support/gateway-desk-agents.ts', { NATS_URL: nats.server.url, INTERLUDE_QUEUE: queue });
  await worker.waitForLine(/^interlude-worker: ready: /);
});

afterAll(async () => {
  await worker?.stop('SIGTERM');
  await served?.close();
  await tap?.close();
});

/** Checks a body against a schema of the gateway's own OpenAPI document, as served. */
async function conforms(schema: string, body: unknown): Promise<void> {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema((await call(served.url, '/v1/openapi.json')).body, 'openapi');
  const validate = ajv.compile({ $ref: `openapi#/components/schemas/${schema}` });
  expect(validate(body) ? [] : validate.errors, schema).toEqual([]);
}

/** Starts a generation of the desk for the worker and waits for its pause; its call id and token. */
async function paused(action: 'approve' | 'explain' | 'enroll') {
  const { generationId } = await served.desk.generation(action, {}).generateLater({ queue });
  const [callId] = (await pausedCalls(served.runtime, generationId)) as [string];
  return { generationId, callId, token: await served.runtime.answerToken(generationId, callId) };
}

/** The resume jobs of a generation the tap saw published (JetStream's acks and redeliveries aside). */
const resumeJobsOf = (generationId: string) =>
  tapped.filter((line) => line.includes(`"generation_id":"${generationId}"`) && line.includes('"kind":"resume"'))
    .length;

const answers = (generationId: string) => `/v1/generations/${generationId}/answers`;

describe('interlude gateway over HTTP, with a worker process on a nats-server of its own', () => {
  it('answers 202 with a key or a token, the worker completes, and a replayed or foreign token is refused', async () => {
    const approval = await paused('approve');
    const note = await paused('explain');
    const listed = await call(served.url, '/v1/pending?agent=desk&action=approve', {
      credential: GATEWAY_TEST_KEYS.reader,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.pending.map((entry: { generation_id: string }) => entry.generation_id)).toContain(
      approval.generationId,
    );
    expect(listed.body.pending.map((entry: { action: string }) => entry.action)).not.toContain('explain');
    await conforms('PendingList', listed.body);
    expect(
      (await call(served.url, `/v1/generations/${approval.generationId}`, { credential: GATEWAY_TEST_KEYS.reader }))
        .body,
    ).toMatchObject({
      status: 'awaiting_input',
      input_requests: [{ kind: 'confirm', tool_call_id: approval.callId }],
    });

    // A token for another generation's call, or an answer for a call it does not name: 403.
    const foreign = await call(served.url, answers(note.generationId), {
      credential: approval.token,
      body: { answers: { [note.callId]: 'because' } },
    });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'answer_token_mismatch']);
    const otherCall = await call(served.url, answers(approval.generationId), {
      credential: approval.token,
      body: { answers: { [approval.callId]: true, call_other: true } },
    });
    expect([otherCall.status, otherCall.body.error.code]).toEqual([403, 'answer_token_mismatch']);
    // An answer the question does not take: 400 with the resume's code, nothing queued.
    const invalid = await call(served.url, answers(approval.generationId), {
      credential: approval.token,
      body: { answers: { [approval.callId]: 'maybe' } },
    });
    expect([invalid.status, invalid.body.error.code]).toEqual([400, 'invalid_confirm']);

    const byToken = await call(served.url, answers(approval.generationId), {
      credential: approval.token,
      body: { answers: { [approval.callId]: true } },
    });
    expect(byToken.status).toBe(202);
    expect(byToken.body).toMatchObject({ generation_id: approval.generationId, resumed: 'queued' });
    await conforms('AnswersResponse', byToken.body);
    await conforms('Error', invalid.body);
    const byKey = await call(served.url, answers(note.generationId), {
      credential: GATEWAY_TEST_KEYS.answerer,
      body: { answers: { [note.callId]: 'customer asked' } },
    });
    expect(byKey.status).toBe(202);
    await lastEventIs(served.runtime, approval.generationId, 'completed');
    await lastEventIs(served.runtime, note.generationId, 'completed');
    expect(resumeJobsOf(approval.generationId)).toBeGreaterThan(0);
    expect(
      (await call(served.url, `/v1/generations/${note.generationId}`, { credential: GATEWAY_TEST_KEYS.reader })).body,
    ).toMatchObject({
      status: 'completed',
      text: 'done',
    });

    const replayed = await call(served.url, answers(approval.generationId), {
      credential: approval.token,
      body: { answers: { [approval.callId]: true } },
    });
    expect([replayed.status, replayed.body.error.code]).toEqual([409, 'already_resumed']);
    const summary = await call(served.url, `/v1/generations/${approval.generationId}`, {
      credential: GATEWAY_TEST_KEYS.reader,
    });
    await conforms('Generation', summary.body);
  });

  it('refuses with 401, 403, 404, 409, 410, 413 and 400, each with its code', async () => {
    const approval = await paused('approve');
    const expect401 = await call(served.url, '/v1/pending');
    expect([expect401.status, expect401.body.error.code]).toEqual([401, 'missing_credential']);
    expect((await call(served.url, '/v1/pending', { credential: 'not-a-key-of-this-gateway' })).body.error.code).toBe(
      'invalid_credential',
    );
    const [payload, keyId, signature] = approval.token.split('.') as [string, string, string];
    const altered = `${payload}.${keyId}.${signature.startsWith('0') ? '1' : '0'}${signature.slice(1)}`;
    const forged = await call(served.url, answers(approval.generationId), {
      credential: altered,
      body: { answers: { [approval.callId]: true } },
    });
    expect([forged.status, forged.body.error.code]).toEqual([401, 'invalid_answer_token']);

    const readOnly = await call(served.url, answers(approval.generationId), {
      credential: GATEWAY_TEST_KEYS.reader,
      body: { answers: { [approval.callId]: true } },
    });
    expect([readOnly.status, readOnly.body.error.code]).toEqual([403, 'insufficient_scope']);
    const tokenReads = await call(served.url, '/v1/pending', { credential: approval.token });
    expect([tokenReads.status, tokenReads.body.error.code]).toEqual([403, 'insufficient_scope']);

    const unknown = await call(served.url, '/v1/generations/gen_nobody', { credential: GATEWAY_TEST_KEYS.reader });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);
    const noPause = await call(served.url, answers('gen_nobody'), {
      credential: GATEWAY_TEST_KEYS.answerer,
      body: { answers: { call: true } },
    });
    expect([noPause.status, noPause.body.error.code]).toEqual([404, 'not_found']);
    expect((await call(served.url, '/v2/nothing', { credential: GATEWAY_TEST_KEYS.reader })).status).toBe(404);

    const notJson = await call(served.url, answers(approval.generationId), {
      credential: GATEWAY_TEST_KEYS.answerer,
      rawBody: '{"answers": ',
    });
    expect([notJson.status, notJson.body.error.code]).toEqual([400, 'invalid_request']);
    const tooLarge = await call(served.url, answers(approval.generationId), {
      credential: GATEWAY_TEST_KEYS.answerer,
      body: { answers: { [approval.callId]: 'x'.repeat(5_000) } },
    });
    expect([tooLarge.status, tooLarge.body.error.code]).toEqual([413, 'payload_too_large']);

    // The answer is one the question refuses, so the token is never spent while it is still valid.
    const short = await served.runtime.answerToken(approval.generationId, approval.callId, { expiresIn: 1 });
    const withShort = () =>
      call(served.url, answers(approval.generationId), {
        credential: short,
        body: { answers: { [approval.callId]: 'maybe' } },
      });
    await expect.poll(async () => (await withShort()).status, { timeout: 5_000, interval: 100 }).toBe(410);
    expect((await withShort()).body.error.code).toBe('expired_answer_token');

    const cancelledByReader = await call(served.url, `/v1/generations/${approval.generationId}/cancel`, {
      credential: GATEWAY_TEST_KEYS.answerer,
      body: {},
    });
    expect([cancelledByReader.status, cancelledByReader.body.error.code]).toEqual([403, 'insufficient_scope']);
    const cancelled = await call(served.url, `/v1/generations/${approval.generationId}/cancel`, {
      credential: GATEWAY_TEST_KEYS.admin,
      body: { reason: 'customer withdrew' },
    });
    expect([cancelled.status, cancelled.body]).toEqual([
      200,
      { generation_id: approval.generationId, cancelled: true },
    ]);
    const late = await call(served.url, answers(approval.generationId), {
      credential: approval.token,
      body: { answers: { [approval.callId]: true } },
    });
    expect([late.status, late.body.error.code]).toEqual([409, 'cancelled']);
  });

  it('refuses a token replayed while its answer is still queued (409, one job), and an answer past its question’s deadline (410 expired)', async () => {
    // Answers through this gateway go to a queue no worker takes: the first stays queued.
    const idle = await serveGateway(nats.server.url, { queue: `idle-${process.pid}` });
    try {
      const approval = await paused('approve');
      const body = { answers: { [approval.callId]: true } };
      const first = await call(idle.url, answers(approval.generationId), { credential: approval.token, body });
      expect(first.status).toBe(202);
      // One id per pause: the generation and the claim slot its resume takes.
      expect(first.body.job_id).toMatch(new RegExp(`^answer_${approval.generationId}_\\d+$`));
      const replayed = await call(idle.url, answers(approval.generationId), { credential: approval.token, body });
      expect([replayed.status, replayed.body.error.code]).toEqual([409, 'already_resumed']);
      // Through another gateway (another process, the same queue): the queue still knows the job.
      const elsewhere = await serveGateway(nats.server.url, { queue: `idle-${process.pid}` });
      try {
        const again = await call(elsewhere.url, answers(approval.generationId), { credential: approval.token, body });
        expect([again.status, again.body.error.code]).toEqual([409, 'already_resumed']);
      } finally {
        await elsewhere.close();
      }
      // Stored once: each publish crossed the server, and JetStream kept the first.
      const jobs = await (await jetstreamManager(tap)).streams.info('INTERLUDE_JOBS', {
        subjects_filter: `interlude.jobs.idle-${process.pid}`,
      });
      expect(jobs.state.subjects).toEqual({ [`interlude.jobs.idle-${process.pid}`]: 1 });
    } finally {
      await idle.close();
    }

    const { generationId } = await served.desk.generation('hurry', { expiresInMs: 1_000 }).generateLater({ queue });
    const [callId] = (await pausedCalls(served.runtime, generationId)) as [string];
    // An answer the question refuses (400) until its deadline: none is taken before it passes.
    const late = () =>
      call(served.url, answers(generationId), {
        credential: GATEWAY_TEST_KEYS.answerer,
        body: { answers: { [callId]: 'maybe' } },
      });
    await expect.poll(async () => (await late()).status, { timeout: 10_000, interval: 200 }).toBe(410);
    expect((await late()).body.error.code).toBe('expired');
  });

  it('limits each credential to its rate (429 with Retry-After), and allows CORS only from the allow-list', async () => {
    const limited = await serveGateway(nats.server.url, { rateLimit: { requests: 3, windowMs: 60_000 } });
    try {
      const statuses = [];
      for (let request = 0; request < 4; request += 1) {
        statuses.push((await call(limited.url, '/v1/pending', { credential: GATEWAY_TEST_KEYS.reader })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await call(limited.url, '/v1/pending', { credential: GATEWAY_TEST_KEYS.reader });
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another key has a window of its own.
      expect((await call(limited.url, '/v1/pending', { credential: GATEWAY_TEST_KEYS.admin })).status).toBe(200);
    } finally {
      await limited.close();
    }

    const preflight = (origin: string) =>
      fetch(`${served.url}/v1/pending`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const allowed = await preflight('https://desk.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://desk.example');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('streams events as SSE, narrowed by its filters; a client reconnecting with Last-Event-ID to another gateway, started after it left, is sent what it missed, from the log', async () => {
    const query = '/v1/events?event=input_requested&agent=desk&action=explain';
    const first = await openEventStream(`${served.url}${query}`, GATEWAY_TEST_KEYS.reader);
    expect(first.response.headers.get('content-type')).toContain('text/event-stream');
    const seen = await paused('explain');
    const message = await first.next();
    expect(message.event).toBe('input_requested');
    expect(JSON.parse(message.data)).toMatchObject({ generation_id: seen.generationId, event: 'input_requested' });
    first.close();

    // While no client listens: one generation another action's filter leaves out, two it keeps.
    await paused('approve');
    const missed = [await paused('explain'), await paused('explain')];
    // A replica that never saw those events (it did not exist): it reads them from the log.
    const replica = await serveGateway(nats.server.url, { queue });
    try {
      const again = await openEventStream(`${replica.url}${query}`, GATEWAY_TEST_KEYS.reader, {
        'last-event-id': message.id as string,
      });
      const replayed = [await again.next(), await again.next()];
      expect(replayed.map((event) => [event.event, JSON.parse(event.data).generation_id])).toEqual(
        missed.map((generation) => ['input_requested', generation.generationId]),
      );
      // Then live, each once: the next question follows the two it missed.
      const live = await paused('explain');
      expect(JSON.parse((await again.next()).data).generation_id).toBe(live.generationId);
      again.close();
      // Resuming from the middle: the first replica sends what came after the one a client last had.
      const resumed = await openEventStream(`${served.url}${query}`, GATEWAY_TEST_KEYS.reader, {
        'last-event-id': replayed[0]?.id as string,
      });
      expect(JSON.parse((await resumed.next()).data).generation_id).toBe(missed[1]?.generationId);
      resumed.close();
    } finally {
      await replica.close();
    }

    const unknown = await call(served.url, '/v1/events?event=nothing_happened', {
      credential: GATEWAY_TEST_KEYS.reader,
    });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_request']);
    const notAnId = await call(served.url, '/v1/events', {
      credential: GATEWAY_TEST_KEYS.reader,
      headers: { 'last-event-id': `${seen.generationId}:start:3` },
    });
    expect([notAnId.status, notAnId.body.error.code]).toEqual([400, 'invalid_request']);
  });

  it('serves its OpenAPI 3.1 document, /healthz and /readyz without a credential', async () => {
    const document = await call(served.url, '/v1/openapi.json');
    expect(document.body.openapi).toBe('3.1.0');
    // As an OpenAPI tool reads it: valid against the OpenAPI 3.1 schema.
    const validator = new Validator();
    const verdict = await validator.validate(document.body);
    expect(verdict.errors ?? [], 'OpenAPI 3.1 validation').toEqual([]);
    expect([verdict.valid, validator.version]).toEqual([true, '3.1']);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining(['/v1/pending', '/v1/generations/{id}', '/v1/generations/{id}/answers', '/v1/events']),
    );
    expect(document.body.components.schemas.AnswersRequest.required).toEqual(['answers']);
    expect((await call(served.url, '/healthz')).body).toEqual({ ok: true });
    expect((await call(served.url, '/readyz')).status).toBe(200);
  });

  it('resumes a secret answered over HTTP in its own process: the canary reaches the tool and no log, event, job, message or span', async () => {
    const canary = `Tok-${randomBytes(8).toString('hex')}`;
    const enrolment = await paused('enroll');
    const answered = await call(served.url, answers(enrolment.generationId), {
      credential: enrolment.token,
      body: { answers: { [enrolment.callId]: canary } },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({
      generation_id: enrolment.generationId,
      resumed: 'in_process',
      status: 'completed',
    });
    await lastEventIs(served.runtime, enrolment.generationId, 'completed');
    const events = JSON.stringify(await served.runtime.bus.events(enrolment.generationId));
    // The tool returned it; what was published says it was scrubbed.
    expect(events).toContain('[FILTERED]');
    // It never became a job: no resume of it crossed the server.
    expect(resumeJobsOf(enrolment.generationId)).toBe(0);
    const sinks = {
      'gateway log': served.logs.join('\n'),
      'worker output': `${worker.lines.join('\n')}\n${worker.errors()}`,
      events,
      'NATS messages (jobs, events, checkpoints, claims)': tapped.join('\n'),
      spans: tracing.finishedSpans().map(spanText).join('\n'),
      'HTTP response': JSON.stringify(answered.body),
    };
    expect(sinks.spans).toContain(enrolment.generationId);
    for (const [sink, text] of Object.entries(sinks)) expect.soft(text, sink).not.toContain(canary);
  });
});
