import { describe, expect, it } from 'vitest';
import type { GenerationEvent } from './events.js';
import { createMemoryEventStream } from './memory-event-stream.js';

const event = (index: number) =>
  ({
    id: `gen_a:start:${index}`,
    event: 'started',
    agent: 'a',
    action: 'b',
    generation_id: 'gen_a',
    index,
  }) as never as GenerationEvent;

describe('the memory bus’s followable log', () => {
  it('keeps the latest events at positions that never change, and resumes after any position it still keeps', async () => {
    const stream = createMemoryEventStream(3);
    for (let index = 0; index < 10; index += 1) stream.append(event(index));
    const seen: [number, string][] = [];
    // Positions 1–7 are gone (3 kept: 8, 9, 10): from position 2 on, it hands out what it has.
    const following = stream.follow({}, (got, position) => void seen.push([got.index, position]), '2');
    stream.append(event(10));
    await new Promise((resolve) => setImmediate(resolve));
    await following.unsubscribe();
    expect(seen).toEqual([
      [7, '8'],
      [8, '9'],
      [9, '10'],
      [10, '11'],
    ]);
    const fromNine: number[] = [];
    stream.follow({}, (got) => void fromNine.push(got.index), '9');
    await new Promise((resolve) => setImmediate(resolve));
    expect(fromNine).toEqual([9, 10]);
  });
});
