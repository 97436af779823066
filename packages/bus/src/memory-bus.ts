import type { Bus } from '@interlude/core';
import { createMemoryBus, type MemoryBusOptions } from '@interlude/core/internal';

export type { MemoryBusOptions } from '@interlude/core/internal';

/**
 * The embedded bus: one process, no server, the default of every runtime. It is core's
 * `createMemoryBus()` under the name this package gives its buses, and passes the same
 * conformance suite as `natsBus()`, so code written against one runs on the other.
 *
 * @example
 * const runtime = createRuntime({ bus: memoryBus() });
 */
export function memoryBus(options: MemoryBusOptions = {}): Bus & Required<Pick<Bus, 'health'>> {
  return createMemoryBus(options) as Bus & Required<Pick<Bus, 'health'>>;
}
