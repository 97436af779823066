import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ResumeError } from '../errors/resume-error.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import { scriptedAgent } from '../test-support/harness.js';
import { forgetProcessClaimLogs } from '../testing/index.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import type { Checkpoint } from './checkpoint.js';
import { CHECKPOINT_KEYS } from './checkpoint.js';

const KEY = 'frozen-corpus-key-v3-0123456789';
const NEW_KEY = 'a-key-rotated-in-after-the-corpus';

/**
 * Checkpoints in the one format this release reads, each with the runtime that may resume it:
 * read only, never regenerated unless the format itself changes (nothing was released, so a
 * change replaces the fixture instead of adding a reader). It leaves out every field at its
 * default, writes its slot (0 included) and its signature in base64url.
 */
const corpus: { name: string; runtime: RuntimeOptions }[] = [
  { name: 'signed-refund.json', runtime: { checkpointKey: [NEW_KEY, KEY], audience: 'frozen-corpus' } },
];

async function load(name: string): Promise<Checkpoint> {
  return JSON.parse(await readFile(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as Checkpoint;
}

/** Resumes in a fresh runtime standing for a process of its own (its claims not those of the process before it). */
async function resume(checkpoint: unknown, runtime: RuntimeOptions, params: unknown = { ticketId: 42 }) {
  forgetProcessClaimLogs();
  const scenario = createRefundScenario();
  const { agent, provider } = scriptedAgent(scenario.action, [scenario.replies[1] as never], runtime);
  const outcome = await agent
    .generation('handle', params)
    .resumeNow({ checkpoint, answers: { call_refund: true } })
    .then(
      (done) => done.text,
      (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
    );
  return { outcome, runs: scenario.runs, requests: provider.requests.length };
}

/** Every object's keys in reverse order, the way a `jsonb` column may hand them back. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, entry]) => [key, reordered(entry)]),
  );
}

describe('the frozen checkpoint corpus', () => {
  for (const { name, runtime } of corpus) {
    it(`${name} still resumes`, async () => {
      const checkpoint = await load(name);
      expect(Object.keys(checkpoint)).toEqual(CHECKPOINT_KEYS.filter((key) => key in checkpoint));
      expect(await resume(checkpoint, runtime)).toEqual({
        outcome: 'I refunded $30 on order 42.',
        runs: { lookup_order: 0, issue_refund: 1 },
        requests: 1,
      });
    });
  }

  it('resumes once and is refused ever after, by its claim slot', async () => {
    forgetProcessClaimLogs();
    const scenario = createRefundScenario();
    const { agent } = scriptedAgent(scenario.action, [scenario.replies[1] as never], corpus[0]?.runtime);
    const checkpoint = await load('signed-refund.json');
    const attempt = () =>
      agent
        .handle({ ticketId: 42 })
        .resumeNow({ checkpoint, answers: { call_refund: true } })
        .then(
          (done) => done.status,
          (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
        );
    expect([await attempt(), await attempt()]).toEqual(['completed', 'already_resumed']);
    expect(scenario.runs.issue_refund).toBe(1);
  });

  it('is signed as written: its defaults written out, its slot left out, or its signature in hex, are refused', async () => {
    const checkpoint = await load('signed-refund.json');
    const runtime = { checkpointKey: KEY, audience: 'frozen-corpus' };
    const spelledOut = { ...checkpoint, approval_tool_calls: [] };
    const { claim_slot: _slot, ...slotless } = checkpoint;
    const hex = { ...checkpoint, signature: Buffer.from(checkpoint.signature as string, 'base64url').toString('hex') };

    expect((await resume(reordered(checkpoint), runtime)).outcome).toBe('I refunded $30 on order 42.');
    expect((await resume(spelledOut, runtime)).outcome).toBe('bad_signature');
    expect((await resume(slotless, runtime)).outcome).toBe('bad_signature');
    expect((await resume(hex, runtime)).outcome).toBe('bad_signature');
  });

  it('resumes with its keys in any order (RFC 8785), and refuses other params, a deployment, a key or another version', async () => {
    const checkpoint = await load('signed-refund.json');
    const runtime = { checkpointKey: KEY, audience: 'frozen-corpus' };
    expect((await resume(reordered(checkpoint), runtime)).outcome).toBe('I refunded $30 on order 42.');
    expect(await resume(checkpoint, runtime, { ticketId: 43 })).toEqual({
      outcome: 'bad_signature',
      runs: { lookup_order: 0, issue_refund: 0 },
      requests: 0,
    });
    expect((await resume(checkpoint, { ...runtime, audience: 'another-deployment' })).outcome).toBe(
      'audience_mismatch',
    );
    expect((await resume(checkpoint, { checkpointKey: NEW_KEY, audience: 'frozen-corpus' })).outcome).toBe(
      'bad_signature',
    );
    for (const version of [1, 2, 4]) {
      expect((await resume({ ...checkpoint, version }, runtime)).outcome).toBe('unsupported_version');
    }
  });
});
