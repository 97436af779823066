import type { ServerInfo } from '@nats-io/transport-node';
import { BusConnectionError } from './bus-connection-error.js';

/**
 * The oldest nats-server the bus runs on: 2.9.0 brought the direct gets, per-subject discard and
 * consumer features it uses. Revision-checked writes are not serialized on replicated streams
 * before 2.9.21 (nats-server issue 4320), which is why claims are decided by write-once subjects (enforced on every 2.9)
 * rather than by expected revisions: Debian's 2.9.10 is as safe as a current server.
 */
export const MINIMUM_SERVER_VERSION = '2.9.0';

/**
 * Refuses a server the bus cannot run on safely, with `unsupported_server`: one older than
 * `MINIMUM_SERVER_VERSION`, or one without JetStream (every stream and the bucket live there).
 */
export function checkServerSupport(info: Pick<ServerInfo, 'version' | 'jetstream'>, server: string): void {
  if (compareVersions(info.version, MINIMUM_SERVER_VERSION) < 0) {
    throw new BusConnectionError(
      'unsupported_server',
      server,
      `nats-server at ${server} is version ${info.version}; Interlude needs ${MINIMUM_SERVER_VERSION} or later`,
    );
  }
  if (info.jetstream !== true) {
    throw new BusConnectionError(
      'unsupported_server',
      server,
      `nats-server at ${server} (${info.version}) has JetStream turned off; start it with -js (or a jetstream {} block), which the bus's streams and checkpoint bucket need`,
    );
  }
}

/**
 * The replicas a bus without a `replicas` option asks for: 3 when the server it reached belongs
 * to a cluster that advertises three or more servers (`connect_urls` of the server's INFO), 1
 * otherwise. (A two-server cluster gets 1: two replicas lose their quorum with either server.)
 */
export function defaultReplicas(info: Pick<ServerInfo, 'cluster' | 'connect_urls'>): number {
  const servers = new Set(info.connect_urls ?? []).size;
  return info.cluster !== undefined && info.cluster !== '' && servers >= 3 ? 3 : 1;
}

/** Orders `major.minor.patch` versions (a pre-release or build suffix is ignored). */
export function compareVersions(left: string, right: string): number {
  const parts = (version: string) =>
    version
      .split(/[-+]/)[0]
      ?.split('.')
      .map((part) => Number.parseInt(part, 10) || 0) ?? [];
  const a = parts(left);
  const b = parts(right);
  for (let index = 0; index < 3; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
