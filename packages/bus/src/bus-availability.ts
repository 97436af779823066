import type { BusHealth } from '@interlude/core/internal';
import { BusUnavailableError } from './bus-unavailable-error.js';
import { isTransientNatsError } from './retry.js';

/** The bound of `unavailableAfterMs` when the options name none. */
export const DEFAULT_UNAVAILABLE_AFTER_MS = 10_000;

/**
 * What the bus knows of its own availability: each part that is down (`connection`, a stream)
 * with why. `onStatus` hears every change of the whole, never the same status twice in a row.
 */
export interface Availability {
  down(part: string, reason: string): void;
  up(part: string): void;
  current(): BusHealth;
  /**
   * Runs a caller's operation on `part`, failing it with `BusUnavailableError` once it has waited
   * `afterMs` for NATS. Its retries stop by themselves after as long (`giveUpAfterMs`); a write
   * still in flight then may land, which its message id makes harmless.
   */
  bounded<T>(part: string, operation: string, work: () => Promise<T>): Promise<T>;
}

/** What a bus is before it first connects: unavailable, which no one hears until a call meets it. */
export const NOT_CONNECTED_YET = 'not connected to NATS yet';

export function createAvailability(afterMs: number, onStatus: ((status: BusHealth) => void) | undefined): Availability {
  const downParts = new Map<string, string>([['connection', NOT_CONNECTED_YET]]);
  let reported = JSON.stringify({ ok: true });
  const current = (): BusHealth => {
    if (downParts.size === 0) return { ok: true };
    return { ok: false, reason: [...downParts.values()].join('; ') };
  };
  const changed = () => {
    const status = current();
    const key = JSON.stringify(status);
    if (key === reported) return;
    reported = key;
    onStatus?.(status);
  };
  const availability: Availability = {
    down(part, reason) {
      downParts.set(part, reason);
      changed();
    },
    up(part) {
      if (!downParts.delete(part)) return;
      changed();
    },
    current,
    async bounded(part, operation, work) {
      if (!Number.isFinite(afterMs)) return work();
      let timer: NodeJS.Timeout | undefined;
      const unavailable = (cause?: unknown) => {
        const why = downParts.get('connection') ?? `${part} did not answer (no leader: its server may be down)`;
        return new BusUnavailableError(operation, `${operation} gave up after ${afterMs} ms: ${why}`, { cause });
      };
      const running = work();
      // Once given up on, its own failure has no one to tell.
      running.catch(() => undefined);
      const bound = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(unavailable()), afterMs);
      });
      try {
        const value = await Promise.race([running, bound]);
        availability.up(part);
        return value;
      } catch (error) {
        const failure =
          BusUnavailableError.isInstance(error) || !isTransientNatsError(error) ? error : unavailable(error);
        // With the connection down, that is the news: the stream itself may be fine.
        const down = downParts.has('connection') ? 'connection' : part;
        if (BusUnavailableError.isInstance(failure)) availability.down(down, failure.message);
        throw failure;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  return availability;
}
