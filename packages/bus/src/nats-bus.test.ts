import { describe, expect, inject, it } from 'vitest';
import { natsBus } from './nats-bus.js';
import { describeBusConformance, eventually, sampleEvent, uniqueId } from './testing/index.js';

describeBusConformance('natsBus', {
  create: () => natsBus({ servers: inject('natsUrl'), name: 'conformance', onError: () => undefined }),
});

describe('natsBus onError', () => {
  it('hears a subscriber that failed, with the event it failed on', async () => {
    const reports: string[] = [];
    const bus = natsBus({
      servers: inject('natsUrl'),
      onError: (error, context) => void reports.push(`${context}: ${(error as Error).message}`),
    });
    const generationId = uniqueId('gen');
    const subscription = await bus.subscribe({ generationId }, () => {
      throw new Error('handler failed');
    });
    const event = sampleEvent(generationId, 0, 'started');
    await bus.publish(event);
    await eventually(() => reports.length === 1, 'the report');
    expect(reports).toEqual([`subscriber of started ${event.id}: handler failed`]);
    await subscription.unsubscribe();
    await bus.close();
  });
});
