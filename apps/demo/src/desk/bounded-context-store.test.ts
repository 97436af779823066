import type { ContextMessage } from '@interlude/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDemoConfig } from '../config/read-demo-config.js';
import { boundedContextStore } from './bounded-context-store.js';
import { createDesk, type Desk } from './create-desk.js';

function turn(generationId: string): ContextMessage[] {
  return [
    { generationId, role: 'user', content: `ticket ${generationId}` },
    { generationId, role: 'tool', content: { tool_name: 'lookup' }, toolCallId: `call_${generationId}` },
    { generationId, role: 'assistant', content: 'done' },
  ];
}

describe('the desk keeps a bounded history per ticket', () => {
  it('drops the oldest turns whole, so the kept history starts at a user message', async () => {
    const store = boundedContextStore({ messages: 7, generations: 2 });
    for (let run = 0; run < 10; run += 1) {
      await store.append('ticket:1', turn(`gen_${run}`));
      await store.recordGeneration('ticket:1', {
        generationId: `gen_${run}`,
        agent: 'support',
        action: 'refund',
        status: 'completed',
      });
    }
    const kept = await store.load('ticket:1');
    expect(kept.map((message) => message.generationId)).toEqual(['gen_8', 'gen_8', 'gen_8', 'gen_9', 'gen_9', 'gen_9']);
    expect(kept[0]?.role).toBe('user');
    expect([...(store.contexts.get('ticket:1')?.generations.keys() ?? [])]).toEqual(['gen_8', 'gen_9']);
  });

  describe('through the desk', () => {
    let desk: Desk;
    beforeAll(async () => {
      desk = await createDesk({ ...readDemoConfig({}), port: 0 });
    });
    afterAll(async () => {
      await desk.close();
    });

    it('60 runs of one ticket: its stored history and the run it starts from stay bounded', async () => {
      const support = desk.agents.get('support');
      if (support === undefined) throw new Error('no support agent');
      const opening: number[] = [];
      for (let run = 0; run < 60; run += 1) {
        const paused = await support.generation('refund', { ticketId: 101 }).generateNow();
        const [started] = await desk.runtime.bus.events(paused.generationId);
        opening.push(started?.event === 'started' ? started.data.messages.length : -1);
        const request = paused.inputRequests[0];
        await support
          .generation('refund', { ticketId: 101 })
          .resumeNow({ checkpoint: paused.checkpoint, answers: { [request?.toolCallId ?? '']: false } });
      }
      expect(desk.contextStore.contexts.get('ticket:101')?.messages.length).toBeLessThanOrEqual(40);
      expect(Math.max(...opening)).toBeLessThanOrEqual(41);
      expect(opening.at(-1)).toBe(opening.at(-2));
    }, 60_000);
  });
});
