import type { GenerationEvent } from '@interlude/core';
import { describe, expect, it } from 'vitest';
import { inRunOrder } from './nats-event-log.js';

const event = (run: string, index: number, name = 'tool_completed') =>
  ({
    id: `g:${run}:${index}${name === 'failed' ? ':failed' : ''}`,
    run,
    index,
    event: name,
  }) as unknown as GenerationEvent;

describe('inRunOrder', () => {
  it('puts a run’s events back in index order, keeps runs in the order they began, and keeps ties in stream order', () => {
    const stream = [
      event('start', 0),
      event('start', 2),
      event('start', 1),
      event('r1', 0),
      event('r1', 1, 'failed'),
      event('r1', 1),
    ];
    expect(inRunOrder(stream).map((item) => item.id)).toEqual([
      'g:start:0',
      'g:start:1',
      'g:start:2',
      'g:r1:0',
      'g:r1:1:failed',
      'g:r1:1',
    ]);
  });
});
