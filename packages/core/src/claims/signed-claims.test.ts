import { describe, expect, it } from 'vitest';
import type { ClaimRecord } from '../bus/bus.js';
import { createMemoryClaimLog } from '../bus/memory-claim-log.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { ResumeError } from '../errors/resume-error.js';
import { createCheckpointKeys } from '../trust/checkpoint-keys.js';
import { acquireRun } from './acquire-run.js';
import { pauseStanding } from './can-resume.js';
import { checkLease } from './check-lease.js';
import { createRunLease, writeStep } from './run-lease.js';
import { claimRefusal, signClaim } from './sign-claim.js';
import { ForgedSlotError, signedClaimLog } from './signed-claims.js';

const keys = createCheckpointKeys('claims-deployment-key-0123456789');
const otherKeys = createCheckpointKeys('another-deployment-key-987654321');
const generationId = 'gen_signed_claims';
const forged: ClaimRecord = { version: 1, kind: 'claim', holder: 'forger', epoch: 1, time: '2026-01-01T00:00:00.000Z' };

function chain() {
  const raw = createMemoryClaimLog();
  return { raw, log: signedClaimLog(raw, keys) };
}

async function outcome(promise: Promise<{ outcome: string }>): Promise<string> {
  return promise.then(
    (acquired) => acquired.outcome,
    (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
  );
}

describe('claim records signed and bound to their slot', () => {
  it('refuses an unsigned record, one signed with another key, and a genuine one read from another slot or generation', () => {
    const genuine = signClaim(forged, generationId, 3, keys);
    expect(claimRefusal(genuine, generationId, 3, keys)).toBeUndefined();
    expect(genuine.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(claimRefusal(forged, generationId, 3, keys)?.code).toBe('unsigned_claim');
    expect(claimRefusal(signClaim(forged, generationId, 3, otherKeys), generationId, 3, keys)?.code).toBe(
      'forged_claim',
    );
    expect(claimRefusal({ ...genuine, epoch: 2 }, generationId, 3, keys)?.code).toBe('forged_claim');
    expect(claimRefusal(genuine, generationId, 4, keys)?.code).toBe('misplaced_record');
    expect(claimRefusal(genuine, 'gen_other', 3, keys)?.code).toBe('misplaced_record');
  });

  it('a keyless record in the slot a pause waits at holds nothing: the pause still waits, and of two claims one wins past it', async () => {
    const { raw, log } = chain();
    await raw.write(generationId, 0, forged);
    await raw.write(generationId, 1, signClaim(forged, generationId, 1, otherKeys));
    expect(await pauseStanding(log, generationId, 0)).toBe('waiting');

    const outcomes = await Promise.all(
      ['job-a', 'job-b'].map((claimant) =>
        outcome(acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant })),
      ),
    );
    expect(outcomes.sort()).toEqual(['already_resumed', 'run']);
    expect(await raw.read(generationId, 2)).toMatchObject({ kind: 'claim', generation_id: generationId, slot: 2 });
    expect(await pauseStanding(log, generationId, 0)).toBe('claimed');
    expect(await outcome(acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'in_process' }))).toBe(
      'already_resumed',
    );
  });

  it('a run steps past a forgery written ahead of it; its paused step goes exactly where its checkpoint says or nowhere', async () => {
    const { raw, log } = chain();
    const lease = createRunLease({ log, generationId, claimant: 'job-1', epoch: 1, mode: 'job', cursor: 0 });
    await raw.write(generationId, 0, forged);
    await writeStep(lease, 'tool_started', { toolCallId: 'call_a', toolName: 'lookup' });
    expect(lease.cursor).toBe(2);
    await raw.write(generationId, 2, forged);
    await checkLease(lease);
    expect(lease.cursor).toBe(3);
    // The pause names slot 4 (after its paused step at 3); then a forgery takes 3 and a lease check
    // steps the cursor past it: the step is refused, never written at 4, where its resume claims.
    const checkpoint = { claim_slot: 4 } as Checkpoint;
    await raw.write(generationId, 3, forged);
    await checkLease(lease);
    expect(lease.cursor).toBe(4);
    await expect(writeStep(lease, 'paused', { checkpoint })).rejects.toBeInstanceOf(ForgedSlotError);
    expect(await raw.read(generationId, 4)).toBeUndefined();
  });

  it('signs with the key of what was claimed when it is held, so processes mid-rotation write one chain', () => {
    const rotated = createCheckpointKeys(['a-new-deployment-key-000000000', 'claims-deployment-key-0123456789']);
    const record = signClaim(forged, generationId, 0, rotated, keys.signingKeyId);
    expect(record.key_id).toBe(keys.signingKeyId);
    expect(claimRefusal(record, generationId, 0, keys)).toBeUndefined();
    expect(signClaim(forged, generationId, 0, rotated, 'deadbeef').key_id).toBe(rotated.signingKeyId);
  });
});
