import type { JsMsg } from '@nats-io/jetstream';

/** How many failed jobs it remembers: the oldest is forgotten first. */
const MOST_REMEMBERED = 10_000;

/**
 * A job's attempt, never lower than the last one this consumer ran it at. nats-server 2.9 sometimes
 * redelivers a job handed back with a delay under a count of 1 (seen on 2.9.10: 1, 2, 3, 4, 1, 6):
 * trusted as is (`info.deliveryCount`), such a job would get a sixth run past its last delivery.
 *
 * Lets go with: probably nats-server 2.10.14, which fixed delivery counts going backwards when a
 * redelivery failed to deliver (nats-server PR 5305; 2.10.15 fixed the counts of failed deliveries,
 * PR 5338); not tried against this bus, so unknown until then. To try a server, take
 * `info.deliveryCount` as the attempt and run the conformance case "dead-letters a job its handler
 * refuses, and one that failed on every delivery" (testing/conformance-jobs.ts, which checks the
 * attempts in order) against it many times.
 */
export function createDeliveryCountFloor() {
  const ranAt = new Map<string, number>();
  return {
    attemptOf(message: JsMsg, identity: string): number {
      return Math.max(message.info.deliveryCount, (ranAt.get(identity) ?? 0) + 1);
    },
    /** The job failed at `attempt` and is handed back. */
    failed(identity: string, attempt: number): void {
      ranAt.set(identity, attempt);
      if (ranAt.size > MOST_REMEMBERED) ranAt.delete(ranAt.keys().next().value as string);
    },
    /** The job is done (acknowledged): nothing to remember. */
    done(identity: string): void {
      ranAt.delete(identity);
    },
  };
}
