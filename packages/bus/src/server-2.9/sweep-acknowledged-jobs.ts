import type { JetStreamRequests } from '../jetstream-requests.js';
import { decodeJson } from '../json-codec.js';
import { type ConsumerPosition, releaseVanishedJobs } from './release-vanished-jobs.js';

interface ApiError {
  error?: { code: number; err_code: number; description: string };
}

type ConsumerState = ApiError & ConsumerPosition;

/**
 * The stream sequence at or below which every job on the consumer's subject was acknowledged.
 * Usually the ack floor. A 2.9 server restarted under load can also come back with a floor far
 * behind while nothing waits for an ack (seen: delivered 160, ack floor 1, ack pending 0, and 22
 * acknowledged jobs kept): a message stays pending until it is acknowledged, even one handed back
 * for redelivery, so with none pending everything delivered so far was acknowledged.
 */
export function acknowledgedUpTo(info: ConsumerState): number {
  const floor = info.ack_floor?.stream_seq ?? 0;
  if (info.num_ack_pending !== 0 || info.delivered === undefined) return floor;
  return Math.max(floor, info.delivered.stream_seq);
}

/**
 * Removes jobs the queue's consumer has acknowledged but the work-queue stream still holds. On
 * nats-server 2.9, an ack processed around a restart can move the consumer's ack floor without
 * the stream removing the message (later servers check the floor themselves): the
 * consumer never delivers it again, and it stays in `INTERLUDE_JOBS` for good. Every message on
 * the queue's subject at or below `acknowledgedUpTo` was acknowledged, so it is deleted here
 * (after `releaseVanishedJobs`, which lets the floor move past jobs the stream lost). Returns how
 * many were deleted. Safe from many workers at once: deleting a deleted message is a no-op answer.
 *
 * Lets go with: unknown. nats-server 2.10.14 fixed edge cases that left orphan messages in work
 * queues (nats-server PR 5227), and work-queue and ack-floor fixes kept coming in later releases,
 * but no release is known to keep none across SIGKILLs under load. To try one, run test/reliability/job-server-restarts.test.ts ("0 job messages left
 * behind") against it with the sweep turned off (`sweep` not passed to the job consumer).
 */
export async function sweepAcknowledgedJobs(
  requests: JetStreamRequests,
  names: { apiPrefix: string; stream: string; consumer: string; subject: string },
): Promise<number> {
  const api = (path: string, body: unknown) =>
    requests
      .request(`${names.apiPrefix}.${path}`, Buffer.from(JSON.stringify(body)))
      .then((reply) => decodeJson<ApiError & Record<string, unknown>>(reply.data));
  const consumerInfo = async () => (await api(`CONSUMER.INFO.${names.stream}.${names.consumer}`, {})) as ConsumerState;
  let info = await consumerInfo();
  // Pending entries for jobs that are gone hold the floor and the count of jobs waiting: released
  // first, the floor is read again.
  if ((await releaseVanishedJobs(requests, api, names, info)) > 0) info = await consumerInfo();
  const floor = acknowledgedUpTo(info);
  let swept = 0;
  for (let from = 1; from <= floor; ) {
    const found = (await api(`STREAM.MSG.GET.${names.stream}`, {
      seq: from,
      next_by_subj: names.subject,
    })) as ApiError & {
      message?: { seq: number };
    };
    const seq = found.message?.seq;
    if (seq === undefined || seq > floor) break;
    const deleted = await api(`STREAM.MSG.DELETE.${names.stream}`, { seq, no_erase: true });
    if (deleted.error === undefined) swept += 1;
    from = seq + 1;
  }
  return swept;
}
