import type { ClaimRecord, ClaimSlot } from '../bus/bus.js';
import { TrustError } from '../errors/trust-error.js';
import { canonicalJson } from '../trust/canonical-json.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';

/** A record as a run makes it, before it is placed in a slot and signed there. */
export type UnplacedClaim = Omit<ClaimRecord, 'generation_id' | 'slot' | 'key_id' | 'signature'>;

/**
 * The record bound to its slot: `generation_id` and `slot` written into it and, with keys,
 * `key_id` and `signature` (HMAC-SHA256 in base64url over the RFC 8785 canonical JSON of every
 * other field, under the label `interlude/claim/v1`). It is signed with `keyId` when that key is
 * held (the key of the checkpoint or job the run claimed: every process that can claim it holds
 * that key, even while a new key is being rotated in), else with the signing key.
 */
export function signClaim(
  record: UnplacedClaim,
  generationId: string,
  slot: ClaimSlot,
  keys: CheckpointKeys | undefined,
  keyId?: string,
): ClaimRecord {
  const placed: ClaimRecord = { ...record, generation_id: generationId, slot };
  if (keys === undefined) return placed;
  const signer = keyId !== undefined && keys.keyIds.includes(keyId) ? keyId : keys.signingKeyId;
  const unsigned = { ...placed, key_id: signer };
  return { ...unsigned, signature: keys.sign('claim', canonicalJson(unsigned), signer) };
}

/**
 * Why a record read from `generationId`'s slot `slot` is not to be believed, or undefined when it
 * is: unsigned (`unsigned_claim`), signed with a key not held or not matching (`forged_claim`), or
 * naming another generation or slot than where it was read (`misplaced_record`, checked with keys
 * or without). Without keys (signing off) only the place is checked.
 */
export function claimRefusal(
  record: ClaimRecord,
  generationId: string,
  slot: ClaimSlot,
  keys: CheckpointKeys | undefined,
): TrustError | undefined {
  const where = `slot ${slot} of generation ${JSON.stringify(generationId.slice(0, 64))}`;
  if (keys !== undefined) {
    const { signature, ...unsigned } = record;
    if (typeof signature !== 'string' || typeof record.key_id !== 'string') {
      return new TrustError(
        'unsigned_claim',
        `Skipped an unsigned claim record in ${where}: only signed records claim`,
      );
    }
    let content: string | undefined;
    try {
      content = canonicalJson(unsigned);
    } catch {
      content = undefined;
    }
    if (content === undefined || !keys.verify('claim', content, record.key_id, signature)) {
      return new TrustError(
        'forged_claim',
        keys.keyIds.includes(record.key_id)
          ? `Skipped a claim record in ${where} whose signature does not match: forged or altered`
          : `Skipped a claim record in ${where} signed with a key this runtime does not hold`,
      );
    }
  }
  if (record.generation_id === generationId && record.slot === slot) return undefined;
  return new TrustError('misplaced_record', `Skipped a claim record in ${where} that names another slot`);
}
