import type { ClaimLog, ClaimRecord, ClaimSlot } from '@interlude/core/internal';
import { JetStreamApiError } from '@nats-io/jetstream';
import { headers as createHeaders } from '@nats-io/transport-node';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openClaim, sealClaim } from './codec/sealed-records.js';
import { type JetStreamRequests, MSG_ID_HEADER } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient, SUBJECT_FULL } from './retry.js';
import { lastMessageOn } from './stream-message-get.js';
import type { NatsNames } from './subjects.js';

/**
 * The claim log on JetStream: one subject per slot, `interlude.claims.<generation_id>.<slot>`, in
 * the stream `INTERLUDE_CLAIMS`, which keeps one message per subject and refuses any later one
 * (`discard_new_per_subject`). The stream leader decides in log order, so of two writes to a
 * slot exactly one is stored, on nats-server 2.9.10 with three replicas as on current servers;
 * an expected-sequence header, which is not serialized on replicated streams before 2.9.21
 * (nats-server issue 4320), decides nothing here. Reads ask the leader. A write retried after its answer was lost carries the same
 * message id: stored once, and answered as stored. With a codec, the checkpoint of a pause and the
 * error of a failure are sealed; kinds, holders, epochs and tool names stay readable.
 */
export function createNatsClaimLog(
  resources: () => Promise<{ requests: JetStreamRequests; names: NatsNames }>,
  retry: RetryOptions,
  sealer: PayloadSealer,
): ClaimLog {
  const read = async (generationId: string, slot: ClaimSlot) => {
    const { requests, names } = await resources();
    const subject = names.claimSubject(generationId, slot);
    const found = await retryTransient(
      (timeoutMs) => lastMessageOn(requests, names.claimsStream, subject, timeoutMs),
      retry,
    );
    return found === undefined ? undefined : openClaim(sealer, generationId, slot, decodeJson<ClaimRecord>(found.data));
  };
  return {
    read,
    async write(generationId, slot, record) {
      const { requests, names } = await resources();
      const subject = names.claimSubject(generationId, slot);
      const headers = createHeaders();
      headers.set(MSG_ID_HEADER, `claim:${generationId}:${slot}:${record.holder}`);
      const data = encodeJson(sealClaim(sealer, generationId, slot, record));
      for (;;) {
        try {
          await retryTransient((timeoutMs) => requests.publish(subject, data, headers, timeoutMs), retry);
          return { stored: true };
        } catch (error) {
          if (!(error instanceof JetStreamApiError) || error.code !== SUBJECT_FULL) throw error;
        }
        const existing = await read(generationId, slot);
        // Taken, so it holds a record; one that went missing since (the stream was purged) is tried again.
        if (existing !== undefined) return { stored: false, record: existing };
      }
    },
  };
}
