import type { ClaimLog, ClaimRecord, ClaimSlot, ClaimWrite } from '../bus/bus.js';
import { isCompactedClaim } from '../bus/memory-claim-log.js';
import type { TrustError } from '../errors/trust-error.js';
import { warnOnce } from '../errors/warn-once.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import { claimRefusal, signClaim, type UnplacedClaim } from './sign-claim.js';

/** What a read found: the first believed record at or after the slot asked for, or the first free slot. */
export interface FoundClaim {
  slot: ClaimSlot;
  record: ClaimRecord | undefined;
}

/** A write's answer, with the slot it was decided in. */
export type PlacedClaim = ClaimWrite & { slot: ClaimSlot };

/**
 * A generation's claim chain as core reads it: the bus's write-once slots with every record
 * signed and bound to its slot, and every record that does not verify treated as a hole. A
 * forgery (unsigned, another key, copied from another slot or generation) is skipped by every
 * reader and every writer alike, so it holds no slot: all of them find the same first believed
 * record, and a keyless client's write changes nothing but the slot numbers after it.
 */
export interface SignedClaims {
  /** The first believed record from `slot` on, or the first free slot; forgeries are skipped (and reported). */
  read(generationId: string, slot: ClaimSlot): Promise<FoundClaim>;
  /**
   * Writes `record`, signed for its slot, at `slot` or, past forgeries, at the first slot from
   * there that holds none. With `exact`, a forgery at `slot` is an error instead (`ForgedSlotError`):
   * for a record whose content names the slot after it (a pause's checkpoint).
   */
  write(
    generationId: string,
    slot: ClaimSlot,
    record: UnplacedClaim,
    options?: { keyId?: string | undefined; exact?: boolean },
  ): Promise<PlacedClaim>;
}

/** The claim chain of a runtime's bus, signed and checked with its keys. */
export function signedClaims(runtime: { bus: { claims: ClaimLog }; keys: CheckpointKeys | undefined }): SignedClaims {
  return signedClaimLog(runtime.bus.claims, runtime.keys);
}

/** `signedClaims` over any claim log. */
export function signedClaimLog(log: ClaimLog, keys: CheckpointKeys | undefined): SignedClaims {
  const believed = (record: ClaimRecord, generationId: string, slot: ClaimSlot): boolean => {
    // A finished generation's compacted chain (memory bus) is the bus's own answer, not a record anyone wrote.
    if (isCompactedClaim(record)) return true;
    const refusal = claimRefusal(record, generationId, slot, keys);
    if (refusal !== undefined) reportForgery(generationId, slot, refusal);
    return refusal === undefined;
  };
  return {
    async read(generationId, slot) {
      for (let at = slot; ; at += 1) {
        const record = await log.read(generationId, at);
        if (record === undefined || believed(record, generationId, at)) return { slot: at, record };
      }
    },
    async write(generationId, slot, record, options = {}) {
      for (let at = slot; ; at += 1) {
        const written = await log.write(generationId, at, signClaim(record, generationId, at, keys, options.keyId));
        if (written.stored || believed(written.record, generationId, at)) return { ...written, slot: at };
        if (options.exact === true) throw new ForgedSlotError(generationId, at);
      }
    },
  };
}

/**
 * A forgery took the very slot a record had to go in (a pause's `paused` step, whose checkpoint
 * names the slot after it). Not permanent: the run gives its claim back past the forgery, and
 * the job's next delivery runs it again from the log.
 */
export class ForgedSlotError extends Error {
  constructor(generationId: string, slot: ClaimSlot) {
    super(`A forged claim record took slot ${slot} of generation ${generationId} before this run's step`);
    this.name = 'ForgedSlotError';
  }
}

/** Counts and logs a forgery once per slot: it decides nothing, but whoever runs the deployment should know. */
function reportForgery(generationId: string, slot: ClaimSlot, refusal: TrustError): void {
  if (warnOnce(`forged claim\n${generationId}\n${slot}`, `${refusal.code}: ${refusal.message}`)) forgeriesSeen += 1;
}

let forgeriesSeen = 0;

/** How many forged claim records this process has skipped (each slot counted once). */
export function forgedClaimsSeen(): number {
  return forgeriesSeen;
}
