import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ResumeError } from '../errors/resume-error.js';
import type { RuntimeOptions } from '../runtime/runtime.js';
import { scriptedAgent } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import type { Checkpoint } from './checkpoint.js';
import { CHECKPOINT_KEYS } from './checkpoint.js';

const V1_KEY = 'frozen-corpus-key-v1-0123456789';
const V2_KEY = 'frozen-corpus-key-v2-0123456789';
const V3_KEY = 'frozen-corpus-key-v3-0123456789';
const NEW_KEY = 'a-key-rotated-in-after-the-corpus';

/**
 * Checkpoints written by released versions, each with the runtime that may resume it: read only,
 * never regenerated. An unsigned version 1 checkpoint resumes only where signing is off; a signed
 * one verifies as version 1 signed it (params not covered); version 2 covers params and audience,
 * and later names the claim-log slot its resume claims (`claim_slot`); version 3 leaves out every
 * field at its default (slot 0 among them) and writes its signature in base64url.
 */
const corpus: { name: string; runtime: RuntimeOptions }[] = [
  { name: 'v1-refund.json', runtime: { checkpointKey: false } },
  { name: 'v1-signed-refund.json', runtime: { checkpointKey: [NEW_KEY, V1_KEY] } },
  { name: 'v2-signed-refund.json', runtime: { checkpointKey: [NEW_KEY, V2_KEY], audience: 'frozen-corpus' } },
  { name: 'v2-claim-slot-refund.json', runtime: { checkpointKey: [NEW_KEY, V2_KEY], audience: 'frozen-corpus' } },
  { name: 'v3-signed-refund.json', runtime: { checkpointKey: [NEW_KEY, V3_KEY], audience: 'frozen-corpus' } },
];

async function load(name: string): Promise<Checkpoint> {
  return JSON.parse(await readFile(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8')) as Checkpoint;
}

async function resume(checkpoint: unknown, runtime: RuntimeOptions, params: unknown = { ticketId: 42 }) {
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

  it('each resumes once and is refused ever after: by its claim slot, or by its digest when it has none', async () => {
    for (const { name, runtime } of corpus) {
      const scenario = createRefundScenario();
      const { agent } = scriptedAgent(scenario.action, [scenario.replies[1] as never], runtime);
      const checkpoint = await load(name);
      const attempt = () =>
        agent
          .handle({ ticketId: 42 })
          .resumeNow({ checkpoint, answers: { call_refund: true } })
          .then(
            (done) => done.status,
            (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
          );
      expect([await attempt(), await attempt()], name).toEqual(['completed', 'already_resumed']);
      expect(scenario.runs.issue_refund, name).toBe(1);
    }
  });

  it('an unsigned version 1 checkpoint is refused by a runtime that signs (the default)', async () => {
    expect(await resume(await load('v1-refund.json'), {})).toMatchObject({ outcome: 'bad_signature', requests: 0 });
  });

  it('a signed version 1 checkpoint is refused once its key is rotated out', async () => {
    const checkpoint = await load('v1-signed-refund.json');
    expect(await resume(checkpoint, { checkpointKey: NEW_KEY })).toMatchObject({ outcome: 'bad_signature' });
  });

  it('version 3 is signed as written: its defaults written out, or its signature in hex, are refused', async () => {
    const checkpoint = await load('v3-signed-refund.json');
    const runtime = { checkpointKey: V3_KEY, audience: 'frozen-corpus' };
    const spelledOut = { ...checkpoint, approval_tool_calls: [], claim_slot: 0 };
    const hex = { ...checkpoint, signature: Buffer.from(checkpoint.signature as string, 'base64url').toString('hex') };

    expect((await resume(reordered(checkpoint), runtime)).outcome).toBe('I refunded $30 on order 42.');
    expect((await resume(spelledOut, runtime)).outcome).toBe('bad_signature');
    expect((await resume(hex, runtime)).outcome).toBe('bad_signature');
  });

  it('version 2 resumes with its keys in any order (RFC 8785), and refuses other params, a deployment or a key', async () => {
    const checkpoint = await load('v2-signed-refund.json');
    const runtime = { checkpointKey: V2_KEY, audience: 'frozen-corpus' };
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
  });
});
