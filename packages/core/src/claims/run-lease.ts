import { randomUUID } from 'node:crypto';
import type { ClaimKind, ClaimRecord } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { FencedError } from '../errors/fenced-error.js';
import type { UnplacedClaim } from './sign-claim.js';
import type { SignedClaims } from './signed-claims.js';

/** Which kind of run holds a lease: what it writes to the claim log, and whether it can be fenced out. */
export type LeaseMode =
  /** A job's run: it writes every step and can be taken over by another delivery of its job. */
  | 'job'
  /** `generateNow` / `resumeNow`: only the claim of a resume and, when it fails, a release. */
  | 'in_process'
  /** A delegated generation: it cannot pause, so nobody can resume it and it writes nothing. */
  | 'detached';

/**
 * A run's hold on its generation: who holds it, under which epoch (the fencing token), and the
 * slot its next step is written to. The claim log's slots of a generation form one chain across
 * all its runs; a run's steps go one after another from the slot after its claim.
 */
export interface RunLease {
  readonly log: SignedClaims;
  readonly generationId: string;
  /** The key of the checkpoint or job the run claimed: its records are signed with it (`signClaim`). */
  readonly keyId: string | undefined;
  /** Random per run, so a write retried after a lost answer recognises itself. */
  readonly holder: string;
  /** The job holding the run, when a job does. */
  readonly claimant: string | undefined;
  readonly epoch: number;
  readonly mode: LeaseMode;
  /** The next step's slot; for an in-process run, the `claim_slot` its pause hands out. */
  cursor: number;
  /**
   * How the run follows an earlier holder of the same run: `takeover` (that holder stalled or
   * died), `released` (its run failed and gave the checkpoint back), or not at all. When it does,
   * the run reads the log for what that holder did before it runs anything.
   */
  readonly follows: 'takeover' | 'released' | undefined;
  /** Calls the claim log shows an earlier holder started (call id to tool name). */
  readonly startedCalls: ReadonlyMap<string, string>;
  /** Set once the run wrote or announced its stop (`paused`, `finished`, `released`): it holds nothing more. */
  ended: boolean;
  /** Set once a step found its slot taken by another holder: the run must announce nothing more. */
  fencedOut: boolean;
}

/** A new lease for a run that claimed (or, fresh in-process, needs no claim) at `cursor`. */
export function createRunLease(
  fields: Omit<RunLease, 'holder' | 'ended' | 'fencedOut' | 'startedCalls' | 'follows' | 'keyId'> &
    Partial<Pick<RunLease, 'holder' | 'startedCalls' | 'follows' | 'keyId'>>,
): RunLease {
  return {
    holder: fields.holder ?? newHolder(),
    keyId: fields.keyId,
    startedCalls: fields.startedCalls ?? new Map(),
    follows: fields.follows,
    ended: false,
    fencedOut: false,
    ...fields,
  };
}

export function newHolder(): string {
  return randomUUID();
}

/** A record of `kind` for this lease's holder, claimant and epoch. */
export function recordFor(
  lease: Pick<RunLease, 'holder' | 'claimant' | 'epoch'>,
  kind: ClaimKind,
  extras: Pick<ClaimRecord, 'tool_call_id' | 'tool_name' | 'checkpoint' | 'error'> = {},
): UnplacedClaim {
  return {
    version: 1,
    kind,
    holder: lease.holder,
    ...(lease.claimant !== undefined && { claimant: lease.claimant }),
    epoch: lease.epoch,
    ...extras,
    time: new Date().toISOString(),
  };
}

/** Whether a record is this holder's own (a write of ours whose answer was lost, then retried). */
export function isOwnRecord(record: ClaimRecord, holder: string): boolean {
  return record.holder === holder;
}

/** The `claim_slot` of a pause this run announces: past its `paused` step, or, in-process, its cursor. */
export function pauseSlot(lease: RunLease): number {
  return lease.mode === 'job' ? lease.cursor + 1 : lease.cursor;
}

/**
 * Writes one step of a job's run at its cursor (other runs write nothing here). Taken by another
 * holder, the run was taken over: `FencedError`, and it must stop at once.
 */
export async function writeStep(
  lease: RunLease,
  kind: 'tool_started' | 'paused' | 'finished',
  extras: { toolCallId?: string; toolName?: string; checkpoint?: Checkpoint } = {},
): Promise<void> {
  if (lease.mode !== 'job') return;
  await writeAtCursor(lease, kind, {
    ...(extras.toolCallId !== undefined && { tool_call_id: extras.toolCallId }),
    ...(extras.toolName !== undefined && { tool_name: extras.toolName }),
    ...(extras.checkpoint !== undefined && { checkpoint: extras.checkpoint }),
  });
  if (kind !== 'tool_started') lease.ended = true;
}

/**
 * Gives the run's claim back after a failure (`released`: the checkpoint it resumed can be
 * resumed again), or, for a job whose failure will not go away by retrying, ends it
 * (`finished`). A detached run, or one that already wrote its stop, writes nothing.
 */
export async function endFailedRun(lease: RunLease, failure: { error: unknown; permanent: boolean }): Promise<void> {
  if (lease.mode === 'detached' || lease.ended) return;
  const finished = lease.mode === 'job' && failure.permanent;
  lease.ended = true;
  try {
    await writeAtCursor(
      lease,
      finished ? 'finished' : 'released',
      finished ? { error: describeFailure(failure.error) } : {},
    );
  } catch (error) {
    // An in-process run cannot be taken over: a slot found taken means there is nothing to give back.
    if (lease.mode === 'job' || !FencedError.isInstance(error)) throw error;
    lease.fencedOut = false;
  }
}

/** An error as events carry it (already scrubbed: the run's failures are). */
export function describeFailure(error: unknown): { name: string; message: string; code?: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, ...(typeof code === 'string' && { code }) };
}

async function writeAtCursor(
  lease: RunLease,
  kind: ClaimKind,
  extras: Pick<ClaimRecord, 'tool_call_id' | 'tool_name' | 'checkpoint' | 'error'>,
): Promise<void> {
  // A pause's checkpoint names the slot after its `paused` step, so that step goes exactly where
  // the checkpoint says, even when a lease check stepped the cursor past a forgery since.
  const exactSlot = kind === 'paused' && extras.checkpoint !== undefined ? extras.checkpoint.claim_slot - 1 : undefined;
  const written = await lease.log.write(lease.generationId, exactSlot ?? lease.cursor, recordFor(lease, kind, extras), {
    keyId: lease.keyId,
    exact: exactSlot !== undefined,
  });
  if (!written.stored && !isOwnRecord(written.record, lease.holder)) {
    lease.ended = true;
    lease.fencedOut = true;
    throw new FencedError(lease.generationId, lease.epoch);
  }
  lease.cursor = written.slot + 1;
}
