import type { Bus } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointCases } from './conformance-checkpoints.js';
import { claimCases } from './conformance-claims.js';
import { eventLogCases } from './conformance-events.js';
import { jobQueueCases } from './conformance-jobs.js';
import { waitingCases } from './conformance-waiting.js';

export interface BusConformanceOptions {
  /** Makes a fresh bus. Called once per suite; ids and queue names are unique per case. */
  create: () => Bus | Promise<Bus>;
  /**
   * Makes a bus like `create`'s on which a delivery nothing holds any more comes again within a
   * second or two (`natsBus`: a short `jobAckWaitMs`), for the case that waits for one. Left out,
   * that case uses `create`.
   */
  createWithShortAckWait?: () => Bus | Promise<Bus>;
}

/**
 * The behaviour every `Bus` must have, as vitest cases: publish and replay order, dedupe by
 * event id, subscription filters, checkpoint save/load, write-once claim slots and their races,
 * job enqueue, consume, acknowledgement, redelivery, dead letters, concurrency, draining, the
 * pending index and deadline timers (when the bus has them), close. Run it on your own bus the way
 * this package runs it on `memoryBus()` and `natsBus()`.
 *
 * @example
 * describeBusConformance('my bus', { create: () => myBus() });
 */
export function describeBusConformance(name: string, options: BusConformanceOptions): void {
  describe(`Bus conformance: ${name}`, () => {
    let current: Bus | undefined;
    const bus = () => {
      if (current === undefined) throw new Error('bus not created yet');
      return current;
    };
    beforeAll(async () => {
      current = await options.create();
    });
    afterAll(async () => {
      await current?.close();
    });

    describe('event log', () => eventLogCases(bus));
    describe('checkpoints', () => checkpointCases(bus));
    describe('claims', () => claimCases(bus));
    describe('jobs', () => jobQueueCases(bus));
    describe('what waits', () => waitingCases(bus, options.createWithShortAckWait ?? options.create));

    it('closes cleanly, twice', async () => {
      const extra = await options.create();
      await extra.close();
      await expect(extra.close()).resolves.toBeUndefined();
    });
  });
}
