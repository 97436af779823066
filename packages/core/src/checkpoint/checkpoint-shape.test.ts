import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { comparePlainCheck, hostileValues, withField } from '../testing/plain-check-mutations.js';
import { checkpointShape, hasCheckpointShape } from './checkpoint-shape.js';

const read = (name: string) => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));
const corpus = [read('signed-refund.json')];

/**
 * Hostile values; an object with a symbol key, as a store adapter built in process could hand
 * over; and the question kinds a checkpoint names, out of place.
 */
const values: readonly unknown[] = [...hostileValues, { [Symbol('s')]: 1 }, 'choice', 'confirm'];
const replace = withField;

/** Every checkpoint with one field (top level, in a question, in a result) replaced or removed. */
function singleFieldMutations(frozen: Record<string, unknown> & { input_requests: unknown[] }): unknown[] {
  const withRequest = (request: unknown) => ({ ...frozen, input_requests: [request] });
  const baseRequest = frozen.input_requests[0] as Record<string, unknown>;
  const baseResult = Object.values(frozen['completed_results'] as object)[0] as Record<string, unknown>;
  const withResult = (result: unknown) => ({ ...frozen, completed_results: { call_x: result } });
  const mutated: unknown[] = [];
  for (const value of values) {
    for (const key of [...Object.keys(frozen), 'claim_slot', 'traceparent', 'signature'])
      mutated.push(replace(frozen, key, value));
    // Another version, with any slot.
    mutated.push(replace(replace(frozen, 'version', 2), 'claim_slot', value));
    for (const key of ['kind', 'prompt', 'tool_call_id', 'options', 'schema', 'tool_name'])
      mutated.push(withRequest(replace(baseRequest, key, value)));
    mutated.push(withRequest(value), { ...frozen, input_requests: [baseRequest, value] });
    for (const key of ['tool_name', 'result', 'is_error']) mutated.push(withResult(replace(baseResult, key, value)));
    mutated.push(withResult(value), { ...frozen, completed_results: value });
    mutated.push({ ...frozen, approval_tool_calls: [value] }, { ...frozen, mcp_tool_calls: ['a', value] });
  }
  mutated.push(withRequest({ ...baseRequest, kind: 'choice' }));
  mutated.push(withRequest({ ...baseRequest, kind: 'choice', options: ['a'] }));
  return mutated;
}

describe('the plain checkpoint check', () => {
  it('accepts the frozen checkpoints, so a well-formed resume skips zod', () => {
    for (const frozen of corpus) {
      expect(checkpointShape.safeParse(frozen).success).toBe(true);
      expect(hasCheckpointShape(frozen)).toBe(true);
    }
  });

  it('never accepts a checkpoint the schema refuses, over every single-field mutation', () => {
    const mutations = corpus.flatMap(singleFieldMutations);
    const { accepted: acceptedByBoth, refused: refusedByBoth } = comparePlainCheck(
      mutations,
      (candidate) => checkpointShape.safeParse(candidate).success,
      hasCheckpointShape,
      (candidate) => `(${zodIssues(candidate)}) ${show(candidate)}`,
    );
    // Both verdicts occur: the mutations reach both sides of the check.
    expect(mutations.length).toBeGreaterThan(800);
    expect(acceptedByBoth).toBeGreaterThan(30);
    expect(refusedByBoth).toBeGreaterThan(400);
  });
});

function zodIssues(candidate: unknown): string {
  return JSON.stringify(
    checkpointShape.safeParse(candidate).error?.issues.map(({ path, message }) => ({ path, message })),
  );
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
