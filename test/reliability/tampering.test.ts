import { type Checkpoint, ResumeError } from '@interlude/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordFigure } from '../support/reliability-figures.js';
import { createHostileDesk, pausedHostileCheckpoint, VALID_ANSWERS } from '../support/reliability-hostile-desk.js';
import { applyMutation, type JsonPath, pathsOf, valueAt } from '../support/reliability-mutations.js';

const KEY = 'reliability-checkpoint-key-0123456789';

let signed: Checkpoint;
beforeAll(async () => {
  signed = await pausedHostileCheckpoint(KEY);
});

/** A change to one field that keeps the checkpoint well formed, so only the signature can catch it. */
function quietChange(path: JsonPath, value: unknown): unknown {
  if (path.at(-1) === 'kind') return value === 'text' ? 'confirm' : 'text';
  // Another hex digit, not an appended character: see the report on trailing signature characters.
  if (path.join('.') === 'signature') return `${String(value).slice(0, -1)}${String(value).endsWith('0') ? '1' : '0'}`;
  if (typeof value === 'string') return `${value}x`;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  return value;
}

/** Whether deleting `path` leaves a checkpoint of a valid shape: only then can the signature be the judge. */
function keepsShapeWithout(path: JsonPath): boolean {
  const [top, second, third] = path;
  switch (top) {
    case 'messages':
      return path.length >= 2;
    case 'completed_results':
      return path.length === 2 || (path.length >= 4 && third === 'result');
    case 'input_requests':
      if (path.length !== 3) return path.length >= 2;
      return !['kind', 'prompt', 'tool_call_id'].includes(String(third));
    case 'approval_tool_calls':
    case 'approved_tool_calls':
    case 'mcp_tool_calls':
      return path.length === 2 && second !== undefined;
    case 'traceparent':
    case 'signature':
      return path.length === 1;
    default:
      return false;
  }
}

async function resumeSigned(checkpoint: unknown) {
  const desk = createHostileDesk({ checkpointKey: KEY, resuming: true });
  const outcome = await desk.agent
    .handle({ ticketId: 42 })
    .resumeNow({ checkpoint, answers: VALID_ANSWERS })
    .then(
      (response) => response.status as string,
      (error: unknown) => (ResumeError.isInstance(error) ? error.code : `not a ResumeError: ${String(error)}`),
    );
  return { outcome, toolRuns: desk.runs.length, modelRequests: desk.provider.requests.length };
}

describe('a signed checkpoint changed by a client', () => {
  it('resumes untouched, and with its keys in another order (the signature covers content, not layout)', async () => {
    expect((await resumeSigned(signed)).outcome).toBe('completed');
    const reordered = Object.fromEntries(Object.entries(signed).reverse());
    expect((await resumeSigned(reordered)).outcome).toBe('completed');
  });

  it('every single-field change is refused with bad_signature, before any tool or model call', async () => {
    const leaves = pathsOf(signed).filter((path) => {
      const value = valueAt(signed, path);
      return typeof value !== 'object' || value === null;
    });
    // `version` is read first by design, so a newer format is named as such rather than as tampered.
    const fieldChanges: { path: JsonPath; checkpoint: unknown; expected: string }[] = leaves.map((path) => ({
      path,
      checkpoint: applyMutation(signed, { kind: 'replace', path, value: quietChange(path, valueAt(signed, path)) }),
      expected: path.join('.') === 'version' ? 'unsupported_version' : 'bad_signature',
    }));
    // Removing a field, where the checkpoint stays well formed (a malformed one is refused by shape first).
    const removable = pathsOf(signed).filter(keepsShapeWithout);
    for (const path of removable) {
      fieldChanges.push({
        path: ['-', ...path],
        checkpoint: applyMutation(signed, { kind: 'delete', path }),
        expected: 'bad_signature',
      });
    }
    fieldChanges.push({
      path: ['+', 'traceparent'],
      checkpoint: { ...signed, traceparent: '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01' },
      expected: 'bad_signature',
    });
    expect(leaves.length).toBeGreaterThan(60);

    const results = [];
    for (const { path, checkpoint } of fieldChanges)
      results.push({ path: path.join('.'), ...(await resumeSigned(checkpoint)) });
    expect(results).toEqual(
      fieldChanges.map(({ path, expected }) => ({
        path: path.join('.'),
        outcome: expected,
        toolRuns: 0,
        modelRequests: 0,
      })),
    );
    recordFigure('tampering', { changes: results.length });
  });
});
