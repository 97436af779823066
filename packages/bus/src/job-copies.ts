import type { JsMsg } from '@nats-io/jetstream';
import { type Answer, type Held, handBack } from './held-job.js';

/** How many acknowledged jobs it remembers: the oldest is forgotten first. */
const MOST_REMEMBERED = 1_000;

/**
 * Further deliveries of the jobs (or timers) a consumer holds (running or waiting), by stored message. Across
 * a dropped connection the server may deliver a job again that did arrive, as a first delivery
 * (so its count cannot tell): running the copy too would run its tools twice. A copy is kept alive
 * and answered as the original is, once that one is done; a late copy of a job acknowledged lately
 * is acknowledged, not run.
 */
export function createJobCopies(acknowledgeCopy: (copy: JsMsg) => void) {
  const copies = new Map<string, Held[]>();
  const acknowledged = new Set<string>();
  return {
    wasAcknowledged: (identity: string) => acknowledged.has(identity),

    /** Whether `held` is a further delivery of a job held already: then it is kept with that one. */
    keepIfCopy(held: Held): boolean {
      const ofIt = copies.get(held.identity);
      if (ofIt === undefined) {
        copies.set(held.identity, []);
        return false;
      }
      ofIt.push(held);
      return true;
    },

    /**
     * Answers the copies of a job as the job itself was answered: acknowledged, or handed back.
     * The copies of an abandoned job (another delivery took its run over and holds it) are left
     * alone too: handing one back would have the server deliver the job again, and take the run
     * from the delivery that holds it now.
     */
    settle({ identity }: Held, answer: Answer): void {
      if ('handedBack' in answer) return;
      if (answer.acknowledged) {
        acknowledged.add(identity);
        if (acknowledged.size > MOST_REMEMBERED) acknowledged.delete(acknowledged.values().next().value as string);
      }
      const held = copies.get(identity) ?? [];
      copies.delete(identity);
      for (const copy of held) {
        clearInterval(copy.heartbeat);
        if (answer.acknowledged) acknowledgeCopy(copy.message);
        else if (!('abandoned' in answer)) handBack(copy.message, answer.backoffMs);
      }
    },
  };
}
