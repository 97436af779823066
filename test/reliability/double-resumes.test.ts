import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ChildScript, startScript } from '../support/bus-child-process.js';
import { CANARY, defineReliabilityAgent } from '../support/reliability-agent.js';
import { spanText } from '../support/reliability-canary.js';
import { recordFigure } from '../support/reliability-figures.js';
import { countByCall, createLedger, type Ledger } from '../support/reliability-ledger.js';
import { startWireTap, type WireTap } from '../support/reliability-wire-tap.js';
import { soakSize } from '../support/soak.js';

const PAIRS = soakSize({ short: 120, long: 500 });

let directory: string;
let ledger: Ledger & { drop(): Promise<void> };
let runtime: Runtime;
let tap: WireTap;
const tracing = createInMemoryTracing();
const children: ChildScript[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'interlude-double-'));
  ledger = await createLedger(inject('postgresUrl'));
  tap = await startWireTap(inject('natsUrl'));
  runtime = createRuntime({
    bus: natsBus({ servers: inject('natsUrl'), name: 'reliability-double-test' }),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  defineReliabilityAgent(runtime, { ledger });
});

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop('SIGKILL')));
  await runtime?.close();
  await tap?.close();
  await ledger?.drop();
  await tracing.shutdown();
  await rm(directory, { recursive: true, force: true });
});

/** Pauses `count` generations (ten at a time), each waiting on a refund and a secret PIN. */
async function pauseGenerations(count: number): Promise<string[]> {
  const support = runtime.agents.get('support');
  if (support === undefined) throw new Error('no support agent');
  const ids: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, offset) =>
      support.generation('handle', { ticketId: start + offset, verify: true }).generateNow(),
    );
    for (const paused of await Promise.all(batch)) {
      expect(paused.inputRequests.map((request) => request.kind)).toEqual(['confirm', 'secret']);
      ids.push(paused.generationId);
    }
  }
  return ids;
}

function outcomesOf(child: ChildScript): Map<string, string> {
  const outcomes = new Map<string, string>();
  for (const line of child.lines) {
    const [tag, generationId, outcome] = line.split(' ');
    if (tag === 'result' && generationId !== undefined && outcome !== undefined) outcomes.set(generationId, outcome);
  }
  return outcomes;
}

describe('two processes resuming the same checkpoints at once', () => {
  it(`${PAIRS} pairs, with a secret answer: exactly one resume wins each pair, the other gets already_resumed`, async () => {
    const generationIds = await pauseGenerations(PAIRS);
    const generationsFile = join(directory, 'generations.json');
    const goFile = join(directory, 'go');
    await writeFile(generationsFile, JSON.stringify(generationIds));
    const env = {
      NATS_URL: inject('natsUrl'),
      POSTGRES_URL: inject('postgresUrl'),
      LEDGER_SCHEMA: ledger.schema,
      GENERATIONS_FILE: generationsFile,
      GO_FILE: goFile,
    };
    const [left, right] = [
      startScript('reliability-resume-process.ts', env),
      startScript('reliability-resume-process.ts', env),
    ] as [ChildScript, ChildScript];
    children.push(left, right);
    await Promise.all([left.waitForLine(/^ready$/, 30_000), right.waitForLine(/^ready$/, 30_000)]);
    const started = performance.now();
    await writeFile(goFile, 'go');
    await Promise.all([left.waitForLine(/^done$/, 120_000), right.waitForLine(/^done$/, 120_000)]);
    const seconds = (performance.now() - started) / 1000;

    const leftOutcomes = outcomesOf(left);
    const rightOutcomes = outcomesOf(right);
    const pairs = generationIds.map((generationId) => [
      leftOutcomes.get(generationId),
      rightOutcomes.get(generationId),
    ]);
    const wrong = pairs.filter((pair) => [...pair].sort().join() !== 'already_resumed,completed');
    expect(wrong).toEqual([]);
    // Both processes won some pairs: the resumes really raced.
    const leftWins = pairs.filter(([outcome]) => outcome === 'completed').length;
    expect(leftWins).toBeGreaterThan(0);
    expect(leftWins).toBeLessThan(PAIRS);

    // Each side effect ran once per generation, in whichever process won.
    const rows = await ledger.rows();
    expect(rows.filter((row) => row.tool === 'LEAK')).toEqual([]);
    const counts = countByCall(rows);
    for (const generationId of generationIds) {
      for (const call of ['call_lookup', 'call_refund', 'call_pin'])
        expect(counts.get(`${generationId}/${call}`)).toBe(1);
    }
    expect(rows).toHaveLength(3 * PAIRS);

    // The secret reached its tool (its result was scrubbed) and nothing else: not the event logs,
    // the checkpoints (stored, then removed), the wire, the spans, nor the processes' output.
    let scrubbed = 0;
    for (const generationId of generationIds) {
      const log = await runtime.bus.events(generationId);
      const text = JSON.stringify(log);
      expect(text).not.toContain(CANARY);
      if (text.includes('"checked":"PIN [FILTERED]"')) scrubbed += 1;
      // Completed, so its checkpoint was removed; what it held went over the wire (the tap, below).
      expect(await runtime.bus.checkpoints.load(generationId)).toBeUndefined();
    }
    expect(scrubbed).toBe(PAIRS);
    const childSpans = [left, right].map((child) =>
      Number(child.lines.find((line) => line.startsWith('spans '))?.split(' ')[1]),
    );
    expect(childSpans.every((count) => count > 0)).toBe(true);
    expect(tracing.finishedSpans().some((span) => spanText(span).includes(CANARY))).toBe(false);
    expect([...left.lines, ...right.lines].join('\n')).not.toContain(CANARY);
    await tap.flush();
    expect(tap.saw(CANARY)).toBe(false);
    expect(tap.saw('[FILTERED]')).toBe(true);

    recordFigure('double_resumes', {
      pairs: PAIRS,
      processes: 2,
      leftWins,
      rightWins: PAIRS - leftWins,
      seconds: Number(seconds.toFixed(1)),
      wireMessages: tap.count,
      wireBytes: tap.bytes,
      spansChecked: childSpans.reduce((sum, count) => sum + count, 0) + tracing.finishedSpans().length,
    });
  }, 180_000);
});
