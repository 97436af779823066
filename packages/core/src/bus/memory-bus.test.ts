import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent/define-agent.js';
import { createRuntime } from '../runtime/create-runtime.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
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

describe('memory bus: consumed is forever', () => {
  it('refuses a replay of a resumed checkpoint after 1,000 and after 10,000 other generations completed', async () => {
    const scenario = createRefundScenario();
    const { agent: refunds, runtime } = scriptedAgent(scenario.action, scenario.replies);
    const paused = await refunds.handle({ ticketId: 1 }).generateNow();
    const checkpoint = throughJson(paused.checkpoint);
    await refunds.handle({ ticketId: 1 }).resumeNow({ checkpoint, answers: { call_refund: true } });
    const others = defineAgent({
      name: 'others',
      runtime,
      provider: scriptedProvider(),
      actions: { handle: () => ({ message: 'hi' }) },
    });
    const replay = () =>
      refunds
        .handle({ ticketId: 1 })
        .resumeNow({ checkpoint, answers: { call_refund: true } })
        .then(
          () => 'resumed',
          (error: unknown) => (error as { code?: string }).code,
        );
    let completed = 0;
    for (const target of [1_000, 10_000]) {
      for (; completed < target; completed += 100) {
        const model = others.provider as ReturnType<typeof scriptedProvider>;
        model.push(...Array.from({ length: 100 }, () => ({ text: 'done' })));
        await Promise.all(Array.from({ length: 100 }, () => others.handle().generateNow()));
        model.requests.length = 0;
      }
      expect(await replay(), `after ${target} completions`).toBe('already_resumed');
    }
    expect(scenario.runs.issue_refund).toBe(1);
    // The completed logs were let go meanwhile, as before: only the claims stay.
    expect(await runtime.bus.events(paused.generationId)).toEqual([]);
  }, 60_000);
});

describe('memory bus health', () => {
  it('is always available: it lives in this process', async () => {
    expect(await createMemoryBus().health?.()).toEqual({ ok: true });
  });
});
