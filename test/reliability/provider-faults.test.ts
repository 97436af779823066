import {
  type Checkpoint,
  createRuntime,
  type GenerationResponse,
  type GenerationStream,
  ProviderError,
} from '@interlude/core';
import { createMemoryBus } from '@interlude/core/internal';
import { createWireServer, type WireServer } from '@interlude/providers/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { CANARY, defineReliabilityAgent } from '../support/reliability-agent.js';
import { spanText } from '../support/reliability-canary.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { WIRE_SCRIPTS } from '../support/reliability-wire-replies.js';

let server: WireServer;
let ledger: Ledger & { drop(): Promise<void> };
const faultsSurvived: Record<string, number> = {};

beforeAll(async () => {
  ledger = await createLedger(inject('postgresUrl'));
});
afterAll(async () => {
  await ledger?.drop();
  recordFigure('provider_faults', { faultsSurvived });
});
beforeEach(async () => {
  server = await createWireServer();
});
afterEach(() => server.close());

async function drain(live: GenerationStream): Promise<GenerationResponse> {
  for await (const _part of live) {
    // the failure surfaces from the iteration or from `response`
  }
  return live.response;
}

async function providerError(run: Promise<unknown>): Promise<ProviderError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe.each(WIRE_SCRIPTS)('$name: one generation through every provider fault, with a secret answer', (script) => {
  it('429s are retried, a 500 past retries, a cut stream and a malformed body each fail it clearly with an event; the last checkpoint still resumes; no tool runs twice; the canary never leaves its tool', async () => {
    const tracing = createInMemoryTracing();
    const runtime = createRuntime({
      bus: createMemoryBus(),
      telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider, captureContent: true }),
    });
    const support = defineReliabilityAgent(runtime, { ledger, provider: script.createAdapter(server.url, 2) });
    const generation = () => support.generation('handle', { ticketId: 42, verify: true });
    server.enqueue(script.path, script.toolTurn);
    const paused = await generation().generateNow();
    expect(paused.inputRequests.map((request) => request.kind)).toEqual(['confirm', 'secret']);
    const checkpoint = JSON.parse(JSON.stringify(paused.checkpoint)) as Checkpoint;
    const input = { checkpoint, answers: { call_refund: true, call_pin: CANARY } };
    const lastEvent = async () => (await runtime.bus.events(checkpoint.generation_id)).at(-1)?.event;
    const errors: ProviderError[] = [];

    // A 429, then 500s until the retries are spent: a retryable ProviderError naming the status.
    server.enqueue(script.path, script.rateLimited, script.serverError, script.serverError);
    const before = server.requests.length;
    errors.push(await providerError(generation().resumeNow(input)));
    expect(server.requests.length - before).toBe(3);
    expect(errors[0]).toMatchObject({ status: 500, isRetryable: true });
    expect(await lastEvent()).toBe('failed');

    // A stream cut after its first frames.
    server.enqueue(script.path, script.cut);
    errors.push(await providerError(drain(generation().resumeStream(input))));
    // Every adapter names a dropped stream stream_truncated, retryable.
    expect(errors[1]?.type).toBe('stream_truncated');
    expect(errors[1]).toMatchObject({
      isRetryable: true,
      message: expect.stringMatching(/stream .*before the (message|response) was complete/),
    });
    expect(await lastEvent()).toBe('failed');

    // A 200 whose JSON stops half way: an invalid response, and the SDK does not retry a 200.
    server.enqueue(script.path, script.malformed);
    const beforeMalformed = server.requests.length;
    errors.push(await providerError(generation().resumeNow(input)));
    expect(server.requests.length - beforeMalformed).toBe(1);
    expect(errors[2]?.type).toBe('invalid_response');
    expect(await lastEvent()).toBe('failed');

    // The same checkpoint resumes once the provider answers again (after one more 429).
    server.enqueue(script.path, script.rateLimited, script.final(false));
    const done = await generation().resumeNow(input);
    expect(done.status).toBe('completed');
    expect(done.text).toBe(script.finalText);
    expect(await lastEvent()).toBe('completed');
    expect(server.pending()).toEqual({});

    // Every error is clear and names the provider; each tool ran once through four resumes.
    for (const error of errors) {
      expect(error.message.length).toBeGreaterThan(10);
      expect(error.message).not.toContain(CANARY);
    }
    const counts = countByCall((await ledger.rows()).filter((row) => row.generation_id === checkpoint.generation_id));
    expect(Object.fromEntries(counts)).toEqual({
      [`${checkpoint.generation_id}/call_lookup`]: 1,
      [`${checkpoint.generation_id}/call_refund`]: 1,
      [`${checkpoint.generation_id}/call_pin`]: 1,
    });

    // The secret reached verify_identity (its result went to the model scrubbed) and nothing else.
    const sent = JSON.stringify(server.requests.map((request) => request.body));
    expect(sent).toContain('PIN [FILTERED]');
    expect(sent).not.toContain(CANARY);
    const log = await runtime.bus.events(checkpoint.generation_id);
    // Each of the three failed resumes of the same checkpoint is in the log.
    expect(log.filter((event) => event.event === 'failed')).toHaveLength(3);
    expect(JSON.stringify(log)).not.toContain(CANARY);
    expect(JSON.stringify(await runtime.bus.checkpoints.load(checkpoint.generation_id))).not.toContain(CANARY);
    const spans = tracing.finishedSpans();
    expect(spans.map((span) => span.name)).toContain('execute_tool verify_identity');
    expect(spans.some((span) => spanText(span).includes(CANARY))).toBe(false);
    expect(tracing.openSpanNames()).toEqual([]);
    faultsSurvived[script.name] = 6;
    await tracing.shutdown();
  });
});
