import { type Checkpoint, type GenerationResponse, ResumeError } from '@interlude/core';
import type { ResumeErrorCode } from '@interlude/core/internal';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../support/reliability-figures.js';
import { createHostileDesk, pausedHostileCheckpoint, VALID_ANSWERS } from '../support/reliability-hostile-desk.js';
import { hostileAnswers, hostileCheckpoint } from '../support/reliability-mutations.js';
import { soakSize } from '../support/soak.js';

const RUNS = soakSize({ short: 1_500, long: 10_000 });
const CODES: ReadonlySet<ResumeErrorCode> = new Set<ResumeErrorCode>([
  'invalid_checkpoint',
  'unsupported_version',
  'no_tool_call_turn',
  'unknown_call',
  'missing_answer',
  'invalid_confirm',
  'invalid_choice',
  'invalid_text',
  'schema_mismatch',
  'agent_mismatch',
  'action_mismatch',
  'provider_mismatch',
  'model_mismatch',
  'turn_mismatch',
  'bad_signature',
  'audience_mismatch',
  'expired',
  'already_resumed',
  'not_found',
  'secret_in_job',
]);

let base: Checkpoint;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  // Unsigned, so every mutation reaches the checks behind the signature (tampering.test.ts covers it).
  base = await pausedHostileCheckpoint(false);
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

function ownKeys(value: unknown): string[] {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
}

/**
 * Resumes one hostile checkpoint with one hostile answer map on a fresh desk and checks what a
 * user relies on: a refusal is a `ResumeError` with a known code, before any tool ran or any
 * model request was sent; an accepted resume continues the same generation, runs tool bodies
 * only with input their schema accepts, never runs a completed call again and never runs a
 * declined one.
 */
async function resumeOnce(checkpoint: unknown, answers: unknown): Promise<string> {
  const desk = createHostileDesk({ checkpointKey: false, resuming: true });
  let response: GenerationResponse;
  try {
    response = await desk.agent
      .handle({ ticketId: 42 })
      .resumeNow({ checkpoint, answers: answers as Record<string, unknown> });
  } catch (error) {
    if (!ResumeError.isInstance(error)) throw new Error(`not a ResumeError: ${String(error)}`, { cause: error });
    expect(CODES.has(error.code), `unknown code ${error.code}`).toBe(true);
    expect(desk.runs, `a tool ran before the refusal ${error.code}`).toEqual([]);
    expect(desk.provider.requests, `a model request was sent before the refusal ${error.code}`).toEqual([]);
    return error.code;
  }
  const accepted = checkpoint as Checkpoint;
  expect(response.generationId).toBe(accepted.generation_id);
  for (const run of desk.runs) expect(run.validInput, `${run.tool} ran with ${JSON.stringify(run.input)}`).toBe(true);
  const completed = new Set(ownKeys(accepted.completed_results));
  const declined = new Set(ownKeys(answers).filter((callId) => (answers as Record<string, unknown>)[callId] === false));
  for (const run of desk.runs) {
    expect(completed.has(run.toolCallId), `completed call ${run.toolCallId} ran again`).toBe(false);
    expect(declined.has(run.toolCallId), `declined call ${run.toolCallId} ran`).toBe(false);
  }
  const perCall = new Map<string, number>();
  for (const run of desk.runs) perCall.set(run.toolCallId, (perCall.get(run.toolCallId) ?? 0) + 1);
  for (const [callId, count] of perCall) expect(count, `call ${callId} ran ${count} times`).toBe(1);
  return response.status;
}

describe('hostile checkpoints and answers', () => {
  it('the untouched checkpoint with the right answers resumes and completes', async () => {
    expect(await resumeOnce(base, VALID_ANSWERS)).toBe('completed');
  });

  it('refuses a completed result under the own key "__proto__" as invalid_checkpoint (zod\'s records pass over that key; fast-check seed -352519485 found it)', async () => {
    const checkpoint = structuredClone(base);
    Object.defineProperty(checkpoint.completed_results, '__proto__', {
      value: null,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    expect(Object.keys(checkpoint.completed_results)).toContain('__proto__');
    expect(await resumeOnce(checkpoint, VALID_ANSWERS)).toBe('invalid_checkpoint');
  });

  it(`${RUNS} mutated checkpoints and answer maps: each resumes or is refused with a ResumeError code, before anything runs`, async () => {
    const outcomes = new Map<string, number>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(hostileCheckpoint(base), hostileAnswers, async (checkpoint, answers) => {
        const outcome = await resumeOnce(checkpoint, answers);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: true },
    );
    const seconds = (performance.now() - started) / 1000;
    const tried = [...outcomes.values()].reduce((sum, count) => sum + count, 0);
    expect(tried).toBe(RUNS);
    // The inputs reached both sides: real resumes and many distinct refusals.
    expect(outcomes.get('completed') ?? 0).toBeGreaterThan(RUNS / 50);
    const codes = [...outcomes.keys()].filter((outcome) => CODES.has(outcome as ResumeErrorCode));
    expect(codes.length).toBeGreaterThanOrEqual(8);
    expect(unhandled).toEqual([]);
    recordFigure('hostile_inputs', {
      tried,
      seconds: Number(seconds.toFixed(1)),
      outcomes: Object.fromEntries(outcomes),
    });
  }, 120_000);
});
