/**
 * The module of agents the gateway tests start `interlude-worker` and `interlude-gateway` on (and
 * define in the test process): one `desk` agent whose actions each ask one kind of question —
 * `approve` a confirm, `explain` a text, `enroll` a secret (its tool returns the secret carelessly,
 * so the scrubbing has something to do), `hurry` a confirm that expires `expiresInMs` after it is
 * asked — and end once answered. The model is scripted per
 * request, so every process answers alike.
 */
import type { AgentsFactory } from '@interlude/bus';
import { defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { type RecordedModelRequest, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

const ask = (name: string, question: () => InputRequest) =>
  tool({
    name,
    description: `Ask a person (${name})`,
    input: z.object({}),
    run: (_, ctx) => (ctx.answer === undefined ? question() : { [name]: ctx.answer }),
  });

const approve = ask('approve_refund', () => InputRequest.confirm('Refund $20 on order 7?'));
const explain = ask('note_reason', () => InputRequest.text('Why was it refunded?'));
const enroll = ask('enroll_device', () => InputRequest.secret('Token for device 3?'));

/** The `desk` agent on `runtime`. */
export function defineDesk(runtime: Runtime) {
  // Each action offers one tool: the first turn calls it, the turn after its answer ends.
  const reply = (request: RecordedModelRequest) => {
    const name = request.tools[0]?.name ?? 'none';
    return request.messages.length === 1
      ? { toolCalls: [{ id: `call_${name}`, name, arguments: {} }] }
      : { text: 'done' };
  };
  return defineAgent({
    name: 'desk',
    runtime,
    provider: scriptedProvider(Array.from({ length: 10_000 }, () => reply)),
    actions: {
      approve: () => ({ message: 'Refund order 7', tools: [approve] }),
      explain: () => ({ message: 'Note why', tools: [explain] }),
      enroll: () => ({ message: 'Enroll device 3', tools: [enroll] }),
      hurry: ({ expiresInMs }: { expiresInMs: number }) => ({
        message: 'Refund order 8 soon',
        tools: [ask('approve_soon', () => InputRequest.confirm('Refund $5 on order 8?', { expiresIn: expiresInMs }))],
      }),
    },
  });
}

const agents: AgentsFactory = (runtime) => [defineDesk(runtime)];
export default agents;
