import type { Bus } from '@interlude/core';
import { afterEach, inject } from 'vitest';
import { type NatsBusOptions, natsBus } from '../nats-bus.js';

/**
 * Opens quiet `natsBus` instances for a test file (the run's private server unless `servers`
 * says otherwise) and closes every one after each test, so no connection outlives its test.
 */
export function openNatsBuses(): (options: Partial<NatsBusOptions>) => Bus {
  const opened: Bus[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });
  return (options) => {
    const bus = natsBus({ servers: inject('natsUrl'), onError: () => undefined, ...options });
    opened.push(bus);
    return bus;
  };
}
