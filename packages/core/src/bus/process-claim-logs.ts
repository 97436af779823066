import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { ClaimLog } from './bus.js';
import { createMemoryClaimLog } from './memory-claim-log.js';

type MemoryClaimLog = ReturnType<typeof createMemoryClaimLog>;

/**
 * One claim log per signing key for the whole process. Every runtime of the process that signs
 * with a key accepts every checkpoint signed with it, whichever memory bus it sits on (tests, hot
 * reload, a runtime made per request), so they must all claim in one log: otherwise each bus's
 * own log lets the same checkpoint through once, and the body runs once per runtime. Kept for the
 * life of the process, as a bus keeps its own: a runtime made after another closed still refuses
 * what that one resumed. Generation ids are random, so sharing costs nothing but a map entry.
 */
const logsByKey = new Map<string, MemoryClaimLog>();

/** What a memory bus's `claims` is: its own log until a runtime hands it keys, then the process's log for them. */
export type BindableClaimLog = ClaimLog & {
  compact(generationId: string): void;
  /** Joins the process's log for `keys` (undefined: signing off, one log for every unsigned runtime). */
  useKeys(keys: CheckpointKeys | undefined): void;
};

/**
 * The claim log of a memory bus. It starts as the bus's own (a bus used without a runtime keeps
 * it) and moves to the process's log of the first keys a runtime hands it, as long as nothing was
 * claimed in it yet; a second runtime on the same bus with other keys keeps the first one's log,
 * since both already share the bus.
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
    useKeys(keys) {
      if (bound || written) return;
      bound = true;
      const name = keys === undefined ? 'unsigned' : `key ${keys.signingKeyId}`;
      let shared = logsByKey.get(name);
      if (shared === undefined) {
        shared = createMemoryClaimLog();
        logsByKey.set(name, shared);
      }
      log = shared;
    },
  };
}

/**
 * Forgets the process's claim logs, as a restart of the process would: for a test that resumes one
 * checkpoint (a frozen fixture) in several fresh runtimes, each standing for a process of its own.
 * Buses already bound keep the log they have.
 */
export function forgetProcessClaimLogs(): void {
  logsByKey.clear();
}
