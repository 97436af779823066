import type { NatsConnection } from '@nats-io/transport-node';
import type { Availability } from './bus-availability.js';
import { watchConnectionStatus } from './connection-status.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson } from './json-codec.js';
import type { NatsNames } from './subjects.js';

/** Marks the connection up once connected, down while nats.js has lost it (it reconnects by itself), up once back. */
export function watchAvailability(connection: NatsConnection, availability: Availability): { stop(): void } {
  availability.up('connection');
  return watchConnectionStatus(connection, (status) => {
    if (status.type === 'disconnect') {
      availability.down('connection', `disconnected from NATS (${status.server}): reconnecting`);
    } else if (status.type === 'reconnect') {
      availability.up('connection');
    } else if (status.type === 'close') {
      availability.down('connection', 'the NATS connection is closed');
    }
  });
}

/**
 * Asks each stream for its info, which only a stream with a leader answers: a stream whose
 * replicas are all on servers that are down (one replica, its server down) answers nothing or an
 * error, and is marked down with why; one answering again is marked up.
 */
export async function probeStreams(
  resources: { connection: NatsConnection; requests: JetStreamRequests; names: NatsNames },
  availability: Availability,
): Promise<void> {
  if (resources.connection.isClosed()) return;
  await Promise.all(
    resources.names.allStreams.map(async (stream) => {
      const problem = await streamProblem(resources.requests, stream);
      if (problem === undefined) availability.up(stream);
      else availability.down(stream, `${stream} ${problem}`);
    }),
  );
}

async function streamProblem(requests: JetStreamRequests, stream: string): Promise<string | undefined> {
  try {
    const reply = await requests.request(`$JS.API.STREAM.INFO.${stream}`, new Uint8Array(0));
    const answer = decodeJson<{ error?: { description?: string }; cluster?: { leader?: string } }>(reply.data);
    if (answer.error !== undefined) return `is not available: ${answer.error.description ?? 'an error'}`;
    if (answer.cluster !== undefined && !answer.cluster.leader) return 'has no leader: its servers are down';
    return undefined;
  } catch (error) {
    return `did not answer (${(error as Error).message}): its leader's server may be down`;
  }
}
