import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderError } from '../errors/provider-error.js';
import { scriptedAgent } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';
import { assertDistinctToolCallIds } from './check-tool-call-ids.js';

const call = (id: string, name = 'refund') => ({ id, name, arguments: {} });

describe('tool call ids of one model turn', () => {
  it('accepts distinct ids and refuses a missing or shared one, saying which', () => {
    expect(() => assertDistinctToolCallIds([call('a'), call('b')], 'p')).not.toThrow();
    expect(() => assertDistinctToolCallIds([call('a'), call('')], 'p')).toThrow(
      expect.objectContaining({ type: 'missing_tool_call_id', provider: 'p', isRetryable: false }),
    );
    expect(() => assertDistinctToolCallIds([call('dup_1', 'lookup'), call('dup_1')], 'p')).toThrow(
      expect.objectContaining({ type: 'duplicate_tool_call_id', message: expect.stringContaining('dup_1') }),
    );
  });

  it('fails a generation whose turn repeats an id before any tool runs, instead of merging the calls', async () => {
    const runs: string[] = [];
    const record = (name: string) =>
      tool({
        name,
        description: name,
        input: z.object({}),
        run: () => {
          runs.push(name);
          return { ok: name };
        },
      });
    const { agent, runtime } = scriptedAgent(
      () => ({ message: 'go', tools: [record('lookup'), record('refund')] }),
      [{ toolCalls: [call('dup_1', 'lookup'), call('dup_1', 'refund')] }, { text: 'done' }],
    );
    const failure = await agent
      .handle()
      .generateNow({ generationId: 'gen_duplicate_ids' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(ProviderError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ type: 'duplicate_tool_call_id', provider: 'scripted.messages' });
    expect(runs).toEqual([]);
    const events = await runtime.bus.events('gen_duplicate_ids');
    expect(events.map((event) => event.event)).toEqual(['started', 'failed']);
  });
});
