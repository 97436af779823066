/**
 * One side of the double-resume race, in its own process:
 * `node --import tsx test/support/reliability-resume-process.ts`, settings in env:
 * NATS_URL, POSTGRES_URL, LEDGER_SCHEMA, GENERATIONS_FILE (a JSON array of paused generation ids)
 * and GO_FILE. It prints `ready` once connected, waits for GO_FILE to appear, then answers every
 * generation (ten at a time, with the secret canary for the PIN) and prints
 * `result <generation_id> <status or ResumeError code>` for each, `spans <n>` and `done`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { natsBus } from '@interlude/bus';
import { createRuntime, ResumeError } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { CANARY, defineReliabilityAgent } from './reliability-agent.js';
import { canaryCheckingTracer } from './reliability-canary.js';
import { connectLedger } from './reliability-ledger.js';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

const ledger = connectLedger(required('POSTGRES_URL'), required('LEDGER_SCHEMA'));
const tracing = canaryCheckingTracer(ledger);
const runtime = createRuntime({
  bus: natsBus({ servers: required('NATS_URL'), name: `reliability-resumer-${process.pid}` }),
  telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
});
defineReliabilityAgent(runtime, { ledger });
const generationIds = JSON.parse(readFileSync(required('GENERATIONS_FILE'), 'utf8')) as string[];

// Connected, streams and bucket looked up: the race starts from a warm bus on both sides.
await runtime.bus.checkpoints.load('gen_warmup');
console.log('ready');
const goFile = required('GO_FILE');
const deadline = Date.now() + 60_000;
while (!existsSync(goFile)) {
  if (Date.now() > deadline) throw new Error('no go signal within 60 s');
  await sleep(2);
}

const outcome = async (generationId: string): Promise<string> => {
  // A random head start of 0–3 ms, so neither process is always first.
  await sleep(Math.random() * 3);
  try {
    return (await runtime.answer(generationId, { call_refund: true, call_pin: CANARY })).status;
  } catch (error) {
    if (ResumeError.isInstance(error)) return error.code;
    // Never print the secret: a leak in an error is reported by name, and fails the test.
    return String(error).includes(CANARY) ? 'error-carrying-the-canary' : `error ${String(error)}`;
  }
};
for (let start = 0; start < generationIds.length; start += 10) {
  const batch = generationIds.slice(start, start + 10);
  const results = await Promise.all(batch.map(outcome));
  batch.forEach((generationId, index) => {
    console.log(`result ${generationId} ${results[index]}`);
  });
}
console.log(`spans ${tracing.checkedSpans()}`);
await tracing.settled();
await runtime.close();
await ledger.close();
console.log('done');
