import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { InputTimer, TimerHandler, TimerQueue } from './bus.js';
import { signTimer, timerMessageId, timerRefusal } from './sign-timer.js';

/** Node's timers hold at most this many milliseconds (about 24.8 days); a later deadline waits in steps. */
const LONGEST_DELAY = 2 ** 31 - 1;
/** A handler that failed gets its timer again this much later, at most this many times. */
const RETRY_DELAY_MS = 1_000;
const MAX_ATTEMPTS = 5;

/**
 * Deadlines in this process: each timer fires when due (an unreferenced Node timer, so it never
 * keeps a process alive on its own), once a consumer is there. A handler that rejects gets its
 * timer again a second later, up to five times. Timers are signed with the keys a runtime handed
 * the bus and kept by `timerMessageId`, as on a server: one scheduled without them (or altered)
 * is dropped when due, and never keeps the real one out. A timer its handler abandons (its run
 * was taken over) is neither removed nor offered again while a consumer is there.
 */
export function createMemoryTimerQueue(keys: () => CheckpointKeys | undefined): TimerQueue {
  const timers = new Map<string, InputTimer>();
  const armed = new Map<string, NodeJS.Timeout>();
  // Several runtimes may share one memory bus: a timer goes to each in turn until one meets it.
  const handlers: TimerHandler[] = [];
  const handleAll = async (timer: InputTimer) => {
    let failure: unknown;
    for (const handler of [...handlers]) {
      try {
        return await handler(structuredClone(timer));
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  };

  const arm = (key: string, timer: InputTimer, attempt: number, delay: number) => {
    const wait = Math.min(Math.max(0, delay), LONGEST_DELAY);
    const handle = setTimeout(() => {
      armed.delete(key);
      const left = Date.parse(timer.due_at) - Date.now();
      if (left > 0) return arm(key, timer, attempt, left);
      if (handlers.length === 0) return;
      if (timerRefusal(timer, keys()) !== undefined) {
        timers.delete(key);
        return;
      }
      handleAll(timer).then(
        (verdict) => {
          // Left to the delivery that took its run over: kept (scheduled again, it is still kept
          // once), not armed again here; a consumer that starts after every other stopped meets it.
          if (verdict?.verdict !== 'abandon') timers.delete(key);
        },
        () => {
          if (attempt < MAX_ATTEMPTS && handlers.length > 0) arm(key, timer, attempt + 1, RETRY_DELAY_MS);
          else timers.delete(key);
        },
      );
    }, wait);
    handle.unref();
    armed.set(key, handle);
  };

  return {
    async schedule(unsigned) {
      const timer = signTimer(structuredClone(unsigned), keys());
      const key = timerMessageId(timer);
      if (timers.has(key)) return;
      timers.set(key, timer);
      if (handlers.length > 0) arm(key, timer, 1, Date.parse(timer.due_at) - Date.now());
    },
    async consume(consumer) {
      handlers.push(consumer);
      if (handlers.length === 1) {
        for (const [key, timer] of timers) arm(key, timer, 1, Date.parse(timer.due_at) - Date.now());
      }
      return {
        async stop() {
          handlers.splice(handlers.indexOf(consumer), 1);
          if (handlers.length > 0) return;
          for (const handle of armed.values()) clearTimeout(handle);
          armed.clear();
        },
      };
    },
  };
}
