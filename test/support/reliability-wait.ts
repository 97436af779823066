import { setTimeout as sleep } from 'node:timers/promises';
import { isTransientNatsError } from '../../packages/bus/src/retry.js';

/** Polls `done` every `everyMs` until it is true; throws with `what` and the last progress after `timeoutMs`. */
export async function waitUntil(
  done: () => boolean | Promise<boolean>,
  what: string,
  options: { timeoutMs: number; everyMs?: number; progress?: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${options.timeoutMs} ms waiting for ${what}${options.progress ? `: ${options.progress()}` : ''}`,
      );
    }
    await sleep(options.everyMs ?? 50);
  }
}

/** A small seeded generator (mulberry32), so a random crash plan can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Runs `read` again while the bus is briefly out of reach (`bus_unavailable`, or a NATS error the
 * bus itself retries as transient: a request that timed out or found no responder): a cluster that
 * just lost or regained a node elects leaders for a while, longer on a loaded machine. Anything
 * else, an assertion included, is thrown at once.
 */
export async function readThroughElections<T>(read: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      const electing = (error as { code?: unknown }).code === 'bus_unavailable' || isTransientNatsError(error);
      if (!electing || Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}
