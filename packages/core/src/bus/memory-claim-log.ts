import type { ClaimLog, ClaimRecord, ClaimSlot } from './bus.js';

/** What every slot of a compacted (finished) generation reads as. */
const FINISHED: ClaimRecord = Object.freeze({ version: 1, kind: 'finished', holder: '', epoch: 0, time: '' });

/**
 * Whether a record is this bus's own compacted answer (by identity: every stored record reads
 * back as a fresh copy, so nothing written can be it). It carries no signature and needs none.
 */
export function isCompactedClaim(record: ClaimRecord): boolean {
  return record === FINISHED;
}

interface LiveChain {
  slots: Map<ClaimSlot, string>;
  /** One past the highest numbered slot written. */
  length: number;
}

/**
 * The claim log of the memory bus. Slots are write-once for as long as the bus lives: a
 * checkpoint resumed once is refused ever after, however many generations complete meanwhile.
 * A finished generation's chain is compacted to its length (every slot below reads as
 * `finished`), which is all a refusal needs: about 100 bytes per generation that was ever
 * claimed (its id as the map key and a number), instead of its records.
 */
export function createMemoryClaimLog(): ClaimLog & { compact(generationId: string): void } {
  /** Records kept as JSON text, as a server would keep them: a read hands out a fresh copy. */
  const chains = new Map<string, LiveChain | number>();

  const read = (generationId: string, slot: ClaimSlot): ClaimRecord | undefined => {
    const chain = chains.get(generationId);
    if (chain === undefined) return undefined;
    if (typeof chain === 'number') return slot < chain ? FINISHED : undefined;
    const stored = chain.slots.get(slot);
    return stored === undefined ? undefined : (JSON.parse(stored) as ClaimRecord);
  };

  return {
    async write(generationId, slot, record) {
      const existing = read(generationId, slot);
      if (existing !== undefined) return { stored: false, record: existing };
      let chain = chains.get(generationId);
      if (typeof chain === 'number') {
        // A finished generation takes nothing more.
        return { stored: false, record: FINISHED };
      }
      if (chain === undefined) {
        chain = { slots: new Map(), length: 0 };
        chains.set(generationId, chain);
      }
      chain.slots.set(slot, JSON.stringify(record));
      chain.length = Math.max(chain.length, slot + 1);
      return { stored: true };
    },
    async read(generationId, slot) {
      return read(generationId, slot);
    },
    compact(generationId) {
      const chain = chains.get(generationId);
      if (chain === undefined || typeof chain === 'number') return;
      chains.set(generationId, chain.length);
    },
  };
}
