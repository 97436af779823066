import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent/define-agent.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { scriptedAgent } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { createMemoryBus } from './memory-bus.js';

describe('memory bus retention', () => {
  it('forgets the oldest completed generations past retainCompleted, keeping paused ones', async () => {
    const bus = createMemoryBus({ retainCompleted: 2 });
    const agent = defineAgent({
      name: 'retention',
      runtime: createRuntime({ bus }),
      provider: scriptedProvider(Array.from({ length: 3 }, () => ({ text: 'done' }))),
      actions: { handle: () => ({ message: 'hi' }) },
    });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await agent.handle().generateNow()).generationId);
    expect((await bus.events(ids[0] as string)).length).toBe(0);
    expect((await bus.events(ids[1] as string)).map((event) => event.event)).toEqual([
      'started',
      'model_responded',
      'completed',
    ]);
    expect((await bus.events(ids[2] as string)).length).toBe(3);

    const scenario = createRefundScenario();
    const { agent: refunds, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const paused = await refunds.handle({ ticketId: 1 }).generateNow();
    expect(await runtime.bus.checkpoints.load(paused.generationId)).toBeDefined();
  });
});
