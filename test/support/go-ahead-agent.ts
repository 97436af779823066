import { defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

/**
 * The smallest agent that pauses on a deadline: its action `handle` asks the model, which calls
 * the tool `go`; `go` asks "Go ahead?" (declined when nobody answers within `expiresIn` ms) and,
 * once answered, calls `onRun` with the answer and returns `{ went: answer }`. The scripted model
 * has enough turns for a test that resumes it several times.
 */
export function defineGoAheadAgent(
  runtime: Runtime,
  options: { name: string; expiresIn: number; onRun?: (answer: unknown) => void | Promise<void> },
) {
  return defineAgent({
    name: options.name,
    runtime,
    provider: scriptedProvider(
      Array.from(
        { length: 10 },
        () => (request: { messages: unknown[] }) =>
          request.messages.length === 1
            ? { toolCalls: [{ id: 'call_go', name: 'go', arguments: {} }] }
            : { text: 'done' },
      ),
    ),
    actions: {
      handle: () => ({
        message: 'Go',
        tools: [
          tool({
            name: 'go',
            description: 'Go ahead',
            input: z.object({}),
            async run(_, ctx) {
              if (ctx.answer === undefined)
                return InputRequest.confirm('Go ahead?', { expiresIn: options.expiresIn, onExpiry: 'decline' });
              await options.onRun?.(ctx.answer);
              return { went: ctx.answer };
            },
          }),
        ],
      }),
    },
  });
}
