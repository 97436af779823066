/**
 * The bound of a job consumer's `stop({ timeoutMs })`, for whoever implements `JobConsumer`: the
 * first stop sets it, a later one may only move it earlier (a second SIGTERM means "now"), and
 * every pending stop resolves once the running jobs finish or the bound is reached, whichever
 * comes first. Reaching it calls `onReached` once, which hands the running jobs back.
 *
 * @example
 *   const bound = createStopBound(() => handBackRunningJobs());
 *   async stop(options) { stopped = true; bound.moveTo(options?.timeoutMs); await bound.wait(Promise.all(running)); }
 */
export function createStopBound(onReached: () => void): StopBound {
  let timer: NodeJS.Timeout | undefined;
  let deadline = Number.POSITIVE_INFINITY;
  let reached = false;
  let announce: () => void = () => undefined;
  const reachedSignal = new Promise<void>((resolve) => {
    announce = resolve;
  });
  const reach = () => {
    if (reached) return;
    reached = true;
    clearTimeout(timer);
    onReached();
    announce();
  };
  return {
    moveTo(timeoutMs) {
      if (timeoutMs === undefined || reached) return;
      if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
        throw new TypeError(`timeoutMs must be a number of milliseconds, 0 or more, got ${String(timeoutMs)}`);
      }
      const at = Date.now() + timeoutMs;
      if (at >= deadline) return;
      deadline = at;
      clearTimeout(timer);
      if (timeoutMs === 0) reach();
      // Not unref'd: a process waiting on its stop must not exit before the jobs are handed back.
      else timer = setTimeout(reach, timeoutMs);
    },
    async wait(finished) {
      await Promise.race([finished, reachedSignal]);
      // Everything finished in time: nothing is left to hand back, and no timer may hold the process.
      if (!reached) clearTimeout(timer);
    },
    get reached() {
      return reached;
    },
  };
}

/** See {@link createStopBound}. */
export interface StopBound {
  /** Sets the bound `timeoutMs` from now, unless an earlier one is set; undefined leaves it as it is. */
  moveTo(timeoutMs: number | undefined): void;
  /** Resolves when `finished` does or the bound is reached. */
  wait(finished: Promise<unknown>): Promise<void>;
  /** Whether the bound was reached (and the running jobs handed back). */
  readonly reached: boolean;
}
