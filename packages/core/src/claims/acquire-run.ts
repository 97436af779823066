import type { ClaimRecord } from '../bus/bus.js';
import { ResumeError } from '../errors/resume-error.js';
import { readSegment } from './read-segment.js';
import { createRunLease, isOwnRecord, newHolder, type RunLease, recordFor } from './run-lease.js';
import type { SignedClaims } from './signed-claims.js';

export interface AcquireRequest {
  log: SignedClaims;
  /** The key of the checkpoint (or job) claimed: the run's records are signed with it. */
  keyId: string | undefined;
  generationId: string;
  /** The checkpoint's `claim_slot`, 0 for a fresh job. */
  slot: number;
  mode: 'job' | 'in_process';
  /** The job's id: another delivery of the same job finds its own claim instead of a refusal. */
  claimant?: string;
}

/**
 * What claiming found: a run to do, or (only for another delivery of a job that claimed before)
 * that the job's run already stopped, paused or finished, so there is nothing left to run.
 */
export type Acquired =
  | { outcome: 'run'; lease: RunLease }
  | { outcome: 'stopped'; stop: 'paused' | 'finished' | 'resumed'; slot: number; record?: ClaimRecord };

/**
 * Claims the slot a run starts from, or finds out why it cannot. The slot is write-once: of any
 * number of resumes of one checkpoint exactly one writes its claim, and the others are refused
 * with `already_resumed` for good, unless the run that won gave the checkpoint back (`released`),
 * in which case the next claim goes in the slot after that.
 *
 * A job delivered again (after its worker died or stalled past the ack wait, or because the
 * server lost an ack) finds its own claim: if its run stopped, there is nothing to do; if the run
 * is still open, its holder is presumed gone (the server hands a job out again only once its
 * holder stopped heartbeating) and the new delivery writes `takeover` at the first free slot,
 * one epoch up, which fences the old holder out at its next step.
 */
export async function acquireRun(request: AcquireRequest): Promise<Acquired> {
  return claimChain(request, newHolder(), request.slot, 1, undefined);
}

async function claimChain(
  request: AcquireRequest,
  holder: string,
  startSlot: number,
  startEpoch: number,
  startFollows: 'released' | 'takeover' | undefined,
): Promise<Acquired> {
  const { log, generationId, claimant, keyId } = request;
  let slot = startSlot;
  let epoch = startEpoch;
  let follows = startFollows;
  for (;;) {
    const written = await log.write(generationId, slot, recordFor({ holder, claimant, epoch }, 'claim'), { keyId });
    // Past any forgery: the claim is where it was decided.
    slot = written.slot;
    if (written.stored || isOwnRecord(written.record, holder)) {
      return { outcome: 'run', lease: lease(request, { holder, epoch, cursor: slot + 1, follows }) };
    }
    const taken = written.record;
    const mine = claimant !== undefined && taken.claimant === claimant;
    if (taken.kind !== 'claim') {
      // Only a finished generation's compacted chain answers a claim slot with something else.
      if (mine || (claimant !== undefined && taken.kind === 'finished' && taken.holder === '')) {
        return { outcome: 'stopped', stop: 'finished', slot };
      }
      throw alreadyResumed(generationId);
    }
    const segment = await readSegment(log, generationId, slot + 1, taken.epoch);
    if (segment.end.kind === 'released') {
      // The run gave its checkpoint back: the next claim of it goes after the release, one epoch up.
      slot = segment.end.slot + 1;
      epoch = segment.epoch + 1;
      follows = 'released';
      continue;
    }
    if (segment.end.kind === 'finished' && segment.end.record.error?.code === 'cancelled') {
      throw new ResumeError(
        'cancelled',
        `Generation ${generationId} was cancelled: ${segment.end.record.error.message}`,
      );
    }
    if (!mine) throw alreadyResumed(generationId);
    if (segment.end.kind !== 'open') {
      return {
        outcome: 'stopped',
        stop: segment.end.kind,
        slot: segment.end.slot,
        ...('record' in segment.end && { record: segment.end.record }),
      };
    }
    const next = segment.epoch + 1;
    const takeover = await log.write(
      generationId,
      segment.end.slot,
      recordFor({ holder, claimant, epoch: next }, 'takeover'),
      { keyId },
    );
    if (takeover.stored || isOwnRecord(takeover.record, holder)) {
      return {
        outcome: 'run',
        lease: lease(request, {
          holder,
          epoch: next,
          cursor: takeover.slot + 1,
          follows: 'takeover',
          startedCalls: segment.started,
        }),
      };
    }
    // The old holder (or another delivery) wrote there first: read the run again.
  }
}

function lease(
  request: AcquireRequest,
  fields: Pick<RunLease, 'holder' | 'epoch' | 'cursor' | 'follows'> & { startedCalls?: ReadonlyMap<string, string> },
): RunLease {
  return createRunLease({
    log: request.log,
    generationId: request.generationId,
    claimant: request.claimant,
    keyId: request.keyId,
    mode: request.mode,
    ...fields,
  });
}

function alreadyResumed(generationId: string): ResumeError {
  return new ResumeError('already_resumed', `Generation ${generationId} was already resumed from this checkpoint`);
}
