import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { currentToolContext, runInToolScope, runOutsideToolScope } from './tool-context.js';

const scopeFor = (toolCallId: string) => ({ toolCallId, answers: new Map([[toolCallId, `answer of ${toolCallId}`]]) });

describe('a tool body’s scope', () => {
  it('holds across awaits while another tool body starts and finishes beside it', async () => {
    const seen: (string | undefined)[] = [];
    const slow = runInToolScope(scopeFor('slow'), async () => {
      seen.push(currentToolContext()?.toolCallId);
      await sleep(20);
      // The fast body has settled by now: the scope must still be this body's own.
      seen.push(currentToolContext()?.toolCallId);
      await Promise.resolve();
      return currentToolContext()?.answers.get('slow');
    });
    const fast = runInToolScope(scopeFor('fast'), async () => {
      await sleep(1);
      return currentToolContext()?.toolCallId;
    });
    expect(await fast).toBe('fast');
    expect(await slow).toBe('answer of slow');
    expect(seen).toEqual(['slow', 'slow']);
  });

  it('is gone outside every tool body, and again after a body throws', async () => {
    expect(currentToolContext()).toBeUndefined();
    await expect(
      runInToolScope(scopeFor('failing'), async () => {
        await sleep(1);
        throw new Error('tool failed');
      }),
    ).rejects.toThrow('tool failed');
    expect(currentToolContext()).toBeUndefined();
    await Promise.resolve();
    expect(currentToolContext()).toBeUndefined();
  });

  it('is left by a nested generation, and the outer body keeps its own afterwards', async () => {
    const result = await runInToolScope(scopeFor('outer'), async () => {
      const inner = await runOutsideToolScope(async () => {
        await sleep(1);
        return currentToolContext();
      });
      await sleep(1);
      return { inner, outer: currentToolContext()?.toolCallId };
    });
    expect(result).toEqual({ inner: undefined, outer: 'outer' });
  });
});
