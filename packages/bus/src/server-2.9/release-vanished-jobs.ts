import type { JetStreamRequests } from '../jetstream-requests.js';

/** At most this many acknowledgements a sweep sends: the rest wait for the next sweep. */
const MOST_RELEASED_PER_SWEEP = 1_000;

export interface ConsumerPosition {
  ack_floor?: { stream_seq: number };
  delivered?: { stream_seq: number };
  num_ack_pending?: number;
}

/**
 * Acknowledges, by hand, jobs the consumer still counts as waiting for their ack although the
 * stream no longer holds them. A 2.9 server SIGKILLed under load can restart with its consumer
 * state older than its stream's: a job acknowledged (and so removed) just before the kill comes
 * back as pending, a redelivery finds no message and tries again for good, and the ack floor
 * never passes it (seen: ack pending 4, redelivered 4, ack floor 1, 32 acknowledged jobs kept).
 * The candidates are the stream's interior deleted
 * sequences between the ack floor and the last delivered: nothing is there to run, so
 * acknowledging them loses nothing, and for a sequence the consumer does not count as pending
 * (any other deleted message) the acknowledgement is a no-op. Returns how many were sent.
 *
 * Lets go with `sweepAcknowledgedJobs`, which runs it (no server version is known to make either
 * unneeded): test/bus/vanished-jobs.test.ts shows the
 * 2.9 state (a pending entry for a job the stream lost) and would show a server that has none.
 */
export async function releaseVanishedJobs(
  requests: JetStreamRequests,
  api: (path: string, body: unknown) => Promise<unknown>,
  names: { stream: string; consumer: string },
  position: ConsumerPosition,
): Promise<number> {
  const floor = position.ack_floor?.stream_seq ?? 0;
  const delivered = position.delivered?.stream_seq ?? 0;
  if ((position.num_ack_pending ?? 0) === 0 || delivered <= floor) return 0;
  const info = (await api(`STREAM.INFO.${names.stream}`, { deleted_details: true })) as {
    state?: { deleted?: number[] };
  };
  const vanished = (info.state?.deleted ?? [])
    .filter((seq) => seq > floor && seq <= delivered)
    .slice(0, MOST_RELEASED_PER_SWEEP);
  // The reply subject a delivery would carry (`$JS.ACK.<stream>.<consumer>.<delivered count>.
  // <stream seq>.<consumer seq>.<time>.<pending>`). Consumer sequence 0: the server takes the one
  // its pending entry holds, and with no entry it moves no floor.
  // Asked for a reply so the floor is read after they count; a server that does not answer an
  // acknowledgement of nothing pending only costs the request's timeout.
  await Promise.allSettled(
    vanished.map((seq) =>
      requests.request(`$JS.ACK.${names.stream}.${names.consumer}.1.${seq}.0.0.0`, Buffer.from('+ACK')),
    ),
  );
  return vanished.length;
}
