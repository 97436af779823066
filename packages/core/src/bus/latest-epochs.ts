import type { GenerationEvent } from './events.js';

/** An event's epoch: absent means the run's first holder. */
export function epochOf(event: GenerationEvent): number {
  return event.epoch ?? 1;
}

/**
 * A generation's events with only the latest epoch of each run, plus the `failed` events that
 * ended earlier ones. A run that follows another holder of the same run (one that stalled past
 * its lease, or failed and gave its claim back) starts over under the next epoch and logs
 * everything again, reusing what was done; so that epoch alone tells the run. What a stalled
 * holder published before it was fenced out stays in the store, but not in the log. Order is kept.
 */
export function latestEpochs(events: readonly GenerationEvent[]): GenerationEvent[] {
  let superseded = false;
  const latest = new Map<string, number>();
  for (const event of events) {
    const epoch = epochOf(event);
    const known = latest.get(event.run);
    if (known === undefined) latest.set(event.run, epoch);
    else if (epoch !== known) {
      superseded = true;
      if (epoch > known) latest.set(event.run, epoch);
    }
  }
  if (!superseded) return [...events];
  return events.filter((event) => event.event === 'failed' || epochOf(event) === latest.get(event.run));
}
