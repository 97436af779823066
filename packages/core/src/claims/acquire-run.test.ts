import { describe, expect, it } from 'vitest';
import type { ClaimLog } from '../bus/bus.js';
import { createMemoryClaimLog } from '../bus/memory-claim-log.js';
import { FencedError } from '../errors/fenced-error.js';
import { ResumeError } from '../errors/resume-error.js';
import { createCheckpointKeys } from '../trust/checkpoint-keys.js';
import { type Acquired, acquireRun } from './acquire-run.js';
import { endFailedRun, type RunLease, writeStep } from './run-lease.js';
import { signedClaimLog } from './signed-claims.js';

const generationId = 'gen_claims';
const keys = createCheckpointKeys('claims-test-key-0123456789');

/** A memory claim log (`raw`, what any writer of the bus reaches) and the signed chain core reads over it. */
function chain() {
  const raw = createMemoryClaimLog();
  return { raw, log: signedClaimLog(raw, keys) };
}

function leaseOf(acquired: Acquired): RunLease {
  if (acquired.outcome !== 'run') throw new Error(`expected a run, got ${acquired.outcome}`);
  return acquired.lease;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return ResumeError.isInstance(error) ? error.code : `not refused: ${String(error)}`;
}

async function kinds(log: ClaimLog, upTo: number): Promise<string[]> {
  const found: string[] = [];
  for (let slot = 0; slot < upTo; slot += 1) found.push((await log.read(generationId, slot))?.kind ?? '-');
  return found;
}

describe('claiming a run in the claim log', () => {
  it('of two claims of one slot exactly one wins; the other is refused for good', async () => {
    const { log } = chain();
    const outcomes = await Promise.all(
      ['a', 'b'].map((claimant) =>
        acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant }).then(
          (acquired) => acquired.outcome,
          (error: unknown) => (ResumeError.isInstance(error) ? error.code : String(error)),
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(['already_resumed', 'run']);
    expect(await refusal(acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'in_process' }))).toBe(
      'already_resumed',
    );
  });

  it('a run that gives its claim back (released) lets the next claim go after the release, one epoch up', async () => {
    const { raw, log } = chain();
    const first = leaseOf(await acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'in_process' }));
    await endFailedRun(first, { error: new Error('outage'), permanent: false });
    const second = leaseOf(await acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'in_process' }));
    expect(second.cursor).toBe(3);
    expect(second.epoch).toBe(2);
    expect(second.follows).toBe('released');
    expect(await kinds(raw, 3)).toEqual(['claim', 'released', 'claim']);
    expect(await refusal(acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'in_process' }))).toBe(
      'already_resumed',
    );
  });

  it('another delivery of a job whose run stopped finds the stop and runs nothing', async () => {
    const { log } = chain();
    const lease = leaseOf(
      await acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant: 'job-1' }),
    );
    await writeStep(lease, 'tool_started', { toolCallId: 'call_a', toolName: 'lookup' });
    await writeStep(lease, 'finished');
    const again = await acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant: 'job-1' });
    expect(again).toMatchObject({ outcome: 'stopped', stop: 'finished', slot: 2 });
    // Anyone else is refused.
    expect(
      await refusal(acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant: 'job-2' })),
    ).toBe('already_resumed');
  });

  it('another delivery of a job whose run is open takes it over one epoch up, and the old holder is fenced out at its next step', async () => {
    const { raw, log } = chain();
    const stalled = leaseOf(
      await acquireRun({ log, keyId: undefined, generationId, slot: 4, mode: 'job', claimant: 'job-1' }),
    );
    await writeStep(stalled, 'tool_started', { toolCallId: 'call_refund', toolName: 'issue_refund' });

    const successor = leaseOf(
      await acquireRun({ log, keyId: undefined, generationId, slot: 4, mode: 'job', claimant: 'job-1' }),
    );
    expect(successor.epoch).toBe(2);
    expect(successor.follows).toBe('takeover');
    expect([...successor.startedCalls]).toEqual([['call_refund', 'issue_refund']]);
    expect(successor.cursor).toBe(7);

    await expect(writeStep(stalled, 'finished')).rejects.toSatisfy(FencedError.isInstance);
    expect(stalled.fencedOut).toBe(true);
    await writeStep(successor, 'finished');
    expect((await raw.read(generationId, 6))?.kind).toBe('takeover');
    expect(await raw.read(generationId, 7)).toMatchObject({ kind: 'finished', holder: successor.holder, epoch: 2 });
  });

  it('a write retried after its answer was lost recognises itself by its holder', async () => {
    const { log } = chain();
    const lease = leaseOf(
      await acquireRun({ log, keyId: undefined, generationId, slot: 0, mode: 'job', claimant: 'job-1' }),
    );
    await writeStep(lease, 'tool_started', { toolCallId: 'call_a', toolName: 'lookup' });
    lease.cursor -= 1; // as if the answer to that write was lost and it is sent again
    await writeStep(lease, 'tool_started', { toolCallId: 'call_a', toolName: 'lookup' });
    expect(lease.cursor).toBe(2);
    expect(lease.fencedOut).toBe(false);
  });
});
