import { setTimeout as sleep } from 'node:timers/promises';
import type { JetStreamManager, StreamConfig, StreamInfo } from '@nats-io/jetstream';
import { type RetryOptions, retryTransient } from './retry.js';
import type { StreamDifference } from './stream-config-error.js';

/** The settings of a stream the bus decides, and so checks on a stream that already exists. */
const CHECKED_SETTINGS = [
  'num_replicas',
  'retention',
  'max_age',
  'max_bytes',
  'max_msgs_per_subject',
  'discard',
  'discard_new_per_subject',
  'duplicate_window',
] as const;

export type WantedStream = Partial<StreamConfig> & { name: string };

/** The stream as stored, or undefined when there is none yet. */
export async function streamInfo(
  manager: JetStreamManager,
  name: string,
  retry: RetryOptions,
): Promise<StreamInfo | undefined> {
  return retryTransient(async () => {
    try {
      return await manager.streams.info(name);
    } catch (error) {
      if (error instanceof Error && error.name === 'StreamNotFoundError') return undefined;
      throw error;
    }
  }, retry);
}

/**
 * Makes sure `wanted` exists: creates it if it does not (safe from many processes at once:
 * creating what another process just created is not an error), and otherwise returns how the
 * stored one differs from it, or, with `update`, updates the stored one to match (JetStream
 * changes replicas and limits in place; a retention policy it cannot change is its error).
 */
export async function ensureStream(
  manager: JetStreamManager,
  wanted: WantedStream,
  options: { retry: RetryOptions; update: boolean; stored?: StreamInfo | undefined },
): Promise<StreamDifference[]> {
  const stored = options.stored ?? (await streamInfo(manager, wanted.name, options.retry));
  if (stored === undefined) {
    const created = await retryTransient(async () => {
      try {
        await addWhenPlaced(manager, wanted);
        return undefined;
      } catch (addError) {
        // Another process may have created it between our info and our add: check that one.
        const raced = await streamInfo(manager, wanted.name, options.retry);
        if (raced === undefined) throw addError;
        return raced;
      }
    }, options.retry);
    return created === undefined ? [] : ensureStream(manager, wanted, { ...options, stored: created });
  }
  const differences = differencesOf(stored, wanted);
  if (differences.length === 0 || !options.update) return differences;
  const config = { ...stored.config, ...pick(wanted) };
  await retryTransient(() => manager.streams.update(wanted.name, config), options.retry);
  return [];
}

/** JetStream's "no suitable peers for placement": fewer servers are in the cluster than the replicas asked. */
const NO_PEERS = 10005;
/** How long a stream waits for its servers: a cluster that just started may not list them all yet. */
const PLACEMENT_WAIT_MS = 15_000;

/**
 * Adds the stream, trying again for `PLACEMENT_WAIT_MS` while the cluster has too few servers
 * for its replicas (just started, its servers still joining); past that the error stands: the
 * cluster is smaller than `replicas`, or servers are down.
 */
async function addWhenPlaced(manager: JetStreamManager, wanted: WantedStream): Promise<void> {
  const giveUpAt = performance.now() + PLACEMENT_WAIT_MS;
  for (;;) {
    try {
      await manager.streams.add(wanted);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== NO_PEERS || performance.now() >= giveUpAt) throw error;
      await sleep(500);
    }
  }
}

/** Each checked setting `wanted` names whose stored value is another. */
export function differencesOf(stored: StreamInfo, wanted: WantedStream): StreamDifference[] {
  const differences: StreamDifference[] = [];
  const config = stored.config as unknown as Record<string, unknown>;
  for (const [setting, value] of Object.entries(pick(wanted))) {
    if (normal(config[setting]) !== normal(value)) {
      differences.push({ stream: wanted.name, setting, stored: config[setting], wanted: value });
    }
  }
  return differences;
}

function pick(wanted: WantedStream): Record<string, unknown> {
  const values = wanted as unknown as Record<string, unknown>;
  return Object.fromEntries(
    CHECKED_SETTINGS.filter((setting) => values[setting] !== undefined).map((setting) => [setting, values[setting]]),
  );
}

/** A stored `false`/0 may be left out of the server's answer; compare them as equal. */
function normal(value: unknown): string {
  return value === undefined || value === false || value === 0 ? '' : String(value);
}
