import type { NatsConnection, Status } from '@nats-io/transport-node';

/**
 * Hands `listener` every status change of the connection (`disconnect`, `reconnect`, …) until
 * `stop()`. nats.js gives statuses out as an async iterator (a QueuedIterator underneath, whose
 * `stop()` unregisters it, which the AsyncIterable type does not show).
 */
export function watchConnectionStatus(
  connection: NatsConnection,
  listener: (status: Status) => void,
): { stop(): void } {
  const statuses = connection.status() as AsyncIterable<Status> & { stop?: () => void };
  void (async () => {
    for await (const status of statuses) listener(status);
  })().catch(() => undefined);
  return { stop: () => statuses.stop?.() };
}
