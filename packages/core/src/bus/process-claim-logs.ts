import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { ClaimLog } from './bus.js';
import { createMemoryClaimLog } from './memory-claim-log.js';

type MemoryClaimLog = ReturnType<typeof createMemoryClaimLog>;

/**
 * One claim log for the whole process, shared by every memory bus a runtime has been bound to.
 * Every runtime of the process that can verify a checkpoint must claim it in the same log,
 * whichever memory bus it sits on (tests, hot reload, a runtime made per request): otherwise each
 * bus's own log lets the checkpoint through once, and the body runs once per runtime. A log per
 * signing key does not do that: a runtime rotating keys (signing with a new key, still accepting
 * the old) verifies what a runtime holding only the old key signed, yet signs with another. One
 * log does, whatever keys the runtimes hold, and lets nobody decide for another deployment: a
 * runtime claims only a checkpoint it verified, generation ids are random, and a record signed
 * with a key a reader does not hold is a hole to it (`claims/signed-claims.ts`). Kept for the life
 * of the process, as a bus keeps its own: a runtime made after another closed still refuses what
 * that one resumed.
 */
let processLog: MemoryClaimLog | undefined;

/** What a memory bus's `claims` is: its own log until a runtime hands it keys, then the process's one log. */
export type BindableClaimLog = ClaimLog & {
  compact(generationId: string): void;
  /** Joins the process's log: a runtime with `keys` (or with signing off) now claims on this bus. */
  useKeys(keys: CheckpointKeys | undefined): void;
};

/**
 * The claim log of a memory bus. It starts as the bus's own (a bus used without a runtime keeps
 * it: conformance cases write fixed generation ids) and moves to the process's log once a runtime
 * hands it keys, as long as nothing was claimed in it yet.
 */
export function createBindableClaimLog(): BindableClaimLog {
  // The bus's own log is made only if it is used before a runtime binds one (a bus per runtime
  // would otherwise build a log for nothing each time).
  let log: MemoryClaimLog | undefined;
  let bound = false;
  let written = false;
  const current = () => {
    log ??= createMemoryClaimLog();
    return log;
  };
  return {
    write(generationId, slot, record) {
      written = true;
      return current().write(generationId, slot, record);
    },
    read: (generationId, slot) => current().read(generationId, slot),
    compact: (generationId) => current().compact(generationId),
    useKeys() {
      if (bound || written) return;
      bound = true;
      processLog ??= createMemoryClaimLog();
      log = processLog;
    },
  };
}

/**
 * Forgets the process's claim log, as a restart of the process would: for a test that resumes one
 * checkpoint (a frozen fixture) in several fresh runtimes, each standing for a process of its own.
 * Buses already bound keep the log they have.
 */
export function forgetProcessClaimLogs(): void {
  processLog = undefined;
}
