import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EventHandler, SelectedEvent } from './bus.js';
import type { EventOf, GenerationEvent } from './events.js';
import { createMemoryBus } from './memory-bus.js';

// The types are checked by `tsc` (every landing's typecheck); the run checks the memory bus hands
// each handler only the events its selector names, which is what the types promise.

function event<Name extends GenerationEvent['event']>(name: Name, index: number, data: EventOf<Name>['data']) {
  return {
    version: 1,
    id: `gen_narrow:start:${index}`,
    event: name,
    agent: 'support',
    action: 'handle',
    generation_id: 'gen_narrow',
    run: 'start',
    index,
    time: new Date(0).toISOString(),
    data,
  } as EventOf<Name>;
}

describe('subscribe narrows the event by the names it selects', () => {
  it('by one name, several, or a filter naming some; every event when it names none', () => {
    expectTypeOf<SelectedEvent<'input_requested'>>().toEqualTypeOf<EventOf<'input_requested'>>();
    expectTypeOf<SelectedEvent<readonly ['completed', 'failed']>>().toEqualTypeOf<EventOf<'completed' | 'failed'>>();
    expectTypeOf<SelectedEvent<{ event: 'resumed'; agent: string }>>().toEqualTypeOf<EventOf<'resumed'>>();
    expectTypeOf<SelectedEvent<{ event: ['started', 'cancelled'] }>>().toEqualTypeOf<
      EventOf<'started' | 'cancelled'>
    >();
    expectTypeOf<SelectedEvent<{ agent: 'support' }>>().toEqualTypeOf<GenerationEvent>();
  });

  it('hands each handler the narrowed event, its data typed, and only those events', async () => {
    const bus = createMemoryBus();
    const asked: string[] = [];
    const questions: EventHandler<EventOf<'input_requested'>> = (heard) => {
      // Every question of a pause names the call it answers.
      expectTypeOf(heard.data.input_requests.map((request) => request.tool_call_id)).toEqualTypeOf<string[]>();
      asked.push(...heard.data.input_requests.map((request) => request.prompt));
    };
    await bus.subscribe({ event: 'input_requested' }, questions);
    const texts: string[] = [];
    await bus.subscribe('completed', (heard) => {
      expectTypeOf(heard.event).toEqualTypeOf<'completed'>();
      texts.push(heard.data.text);
    });
    const ends: string[] = [];
    await bus.subscribe(['completed', 'failed'], (heard) => {
      expectTypeOf(heard.event).toEqualTypeOf<'completed' | 'failed'>();
      ends.push(heard.event);
    });
    // @ts-expect-error a `completed` subscriber's event has no questions
    await bus.subscribe({ event: 'completed' }, (heard) => heard.data.input_requests);

    await bus.publish(
      event('input_requested', 0, {
        input_requests: [{ kind: 'confirm', prompt: 'Refund $30?', tool_call_id: 'call_1', tool_name: 'refund' }],
        tool_call_turn_size: 1,
        approval_tool_calls: [],
        approved_tool_calls: [],
        mcp_tool_calls: [],
        tool_turns: 1,
        tool_choice_cleared: false,
        claim_slot: 0,
      }),
    );
    await bus.publish(event('completed', 1, { text: 'Refunded.', finish_reason: 'stop' }));
    await expect.poll(() => [asked, texts, ends]).toEqual([['Refund $30?'], ['Refunded.'], ['completed']]);
  });
});
