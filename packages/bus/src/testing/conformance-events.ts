import type { Bus, GenerationEvent } from '@interlude/core';
import { expect, it } from 'vitest';
import { sampleEvent, uniqueId } from './fixtures.js';

/** Waits until `condition` holds, polling; fails with `message` after `timeoutMs`. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  message: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Publish, replay, dedupe and live subscriptions. */
export function eventLogCases(bus: () => Bus): void {
  it('replays a generation in publish order', async () => {
    const generationId = uniqueId('gen');
    const published = [
      sampleEvent(generationId, 0, 'started'),
      sampleEvent(generationId, 1, 'model_responded'),
      sampleEvent(generationId, 2, 'tool_completed'),
      sampleEvent(generationId, 3, 'completed'),
    ];
    for (const event of published) await bus().publish(event);
    expect(await bus().events(generationId)).toEqual(published);
  });

  it('stores an event once however often it is published', async () => {
    const generationId = uniqueId('gen');
    const first = sampleEvent(generationId, 0, 'started');
    const second = sampleEvent(generationId, 1, 'completed');
    await bus().publish(first);
    await bus().publish(first);
    await bus().publish(second);
    await bus().publish(first);
    expect((await bus().events(generationId)).map((event) => event.id)).toEqual([first.id, second.id]);
  });

  it('keeps generations apart and gives [] for an unknown one', async () => {
    const one = uniqueId('gen');
    const other = uniqueId('gen');
    await bus().publish(sampleEvent(one, 0, 'started'));
    await bus().publish(sampleEvent(other, 0, 'started', { agent: 'billing', action: 'refund' }));
    await bus().publish(sampleEvent(one, 1, 'completed'));
    expect((await bus().events(one)).map((event) => event.index)).toEqual([0, 1]);
    expect((await bus().events(other)).map((event) => event.agent)).toEqual(['billing']);
    expect(await bus().events(uniqueId('gen'))).toEqual([]);
  });

  it('follows the log from now on, and from any position it handed out, in order and each once', async () => {
    const follow = bus().follow?.bind(bus());
    if (follow === undefined) return;
    const agent = uniqueId('agent');
    const generationId = uniqueId('gen');
    const event = (index: number, name: GenerationEvent['event']) =>
      sampleEvent(generationId, index, name, { agent, action: 'handle' });
    await bus().publish(event(0, 'started'));
    const live: [string, string][] = [];
    const following = await follow({ agent }, (got, position) => void live.push([got.id, position]));
    const published = [event(1, 'model_responded'), event(2, 'tool_completed'), event(3, 'completed')];
    for (const next of published) await bus().publish(next);
    await bus().publish(event(2, 'tool_completed')); // again: stored once
    await eventually(() => live.length === 3, 'the three events published after following');
    await following.unsubscribe();
    // From now on: not the event published before; in publish order; positions that grow.
    expect(live.map(([id]) => id)).toEqual(published.map((next) => next.id));
    const positions = live.map(([, position]) => position);
    expect(positions.map(Number)).toEqual([...positions.map(Number)].sort((a, b) => a - b));
    // From the first one's position (as another process resumes): the rest, narrowed by the filter.
    const resumed: string[] = [];
    const again = await follow({ agent, event: 'completed' }, (got) => void resumed.push(got.id), {
      after: positions[0] as string,
    });
    await eventually(() => resumed.length === 1, 'the completed event after the first position');
    await again.unsubscribe();
    expect(resumed).toEqual([published[2]?.id]);
    await expect(follow({ agent }, () => undefined, { after: 'not-a-position' })).rejects.toThrow(TypeError);
  });

  it('delivers live events matching a filter by event, agent, action and generation', async () => {
    const agent = uniqueId('agent');
    const generationId = uniqueId('gen');
    const byEvent: GenerationEvent[] = [];
    const byAgentAction: GenerationEvent[] = [];
    const byGeneration: GenerationEvent[] = [];
    const subscriptions = [
      await bus().subscribe({ event: 'input_requested', agent }, (event) => void byEvent.push(event)),
      await bus().subscribe({ agent, action: 'refund', event: ['started', 'completed'] }, (event) => {
        byAgentAction.push(event);
      }),
      await bus().subscribe({ generationId }, (event) => void byGeneration.push(event)),
    ];
    const events = [
      sampleEvent(generationId, 0, 'started', { agent, action: 'refund' }),
      sampleEvent(generationId, 1, 'input_requested', { agent, action: 'refund' }),
      sampleEvent(generationId, 2, 'completed', { agent, action: 'refund' }),
      sampleEvent(uniqueId('gen'), 0, 'input_requested', { agent, action: 'handle' }),
      sampleEvent(uniqueId('gen'), 0, 'started', { agent: uniqueId('agent'), action: 'refund' }),
    ];
    for (const event of events) await bus().publish(event);
    await eventually(() => byEvent.length === 2 && byAgentAction.length === 2 && byGeneration.length === 3, 'events');
    expect(byEvent.map((event) => event.id)).toEqual([events[1]?.id, events[3]?.id]);
    expect(byAgentAction.map((event) => event.id)).toEqual([events[0]?.id, events[2]?.id]);
    expect(byGeneration.map((event) => event.index)).toEqual([0, 1, 2]);
    for (const subscription of subscriptions) await subscription.unsubscribe();
  });

  it("subscribes by event name alone: subscribe('input_requested', handler), or a list of names", async () => {
    const agent = uniqueId('agent');
    const generationId = uniqueId('gen');
    const asked: GenerationEvent[] = [];
    const ends: GenerationEvent[] = [];
    const subscriptions = [
      await bus().subscribe('input_requested', (event) => void (event.agent === agent && asked.push(event))),
      await bus().subscribe(['started', 'completed'], (event) => void (event.agent === agent && ends.push(event))),
    ];
    const events = [
      sampleEvent(generationId, 0, 'started', { agent, action: 'refund' }),
      sampleEvent(generationId, 1, 'input_requested', { agent, action: 'refund' }),
      sampleEvent(generationId, 2, 'completed', { agent, action: 'refund' }),
    ];
    for (const event of events) await bus().publish(event);
    await eventually(() => asked.length === 1 && ends.length === 2, 'events by name');
    expect(asked.map((event) => event.index)).toEqual([1]);
    expect(ends.map((event) => event.index)).toEqual([0, 2]);
    for (const subscription of subscriptions) await subscription.unsubscribe();
  });

  it('stops delivering after unsubscribe, and survives a throwing handler', async () => {
    const generationId = uniqueId('gen');
    const received: number[] = [];
    const subscription = await bus().subscribe({ generationId }, (event) => {
      received.push(event.index);
      if (event.index === 0) throw new Error('handler failed');
    });
    await bus().publish(sampleEvent(generationId, 0, 'started'));
    await bus().publish(sampleEvent(generationId, 1, 'completed'));
    await eventually(() => received.length === 2, 'both events despite the throw');
    await subscription.unsubscribe();
    await bus().publish(sampleEvent(generationId, 2, 'failed'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([0, 1]);
  });
}
