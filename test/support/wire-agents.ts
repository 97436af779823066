/**
 * The `wire` agent the contract's wire test drives every kind of message with, beside the desk's
 * questions: `expire` asks a confirm that expires at once (a timer, then `input_expired`), `fail`
 * meets a model that fails (`failed`), `loop` calls a tool past its budget of one turn
 * (`tool_turns_exceeded`), `hold` asks a confirm to be cancelled (`cancelled`).
 */
import { defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { type RecordedModelRequest, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

const confirm = (name: string, options: { expiresIn?: number } = {}) =>
  tool({
    name,
    description: `Ask a person (${name})`,
    input: z.object({}),
    run: (_, ctx) => (ctx.answer === undefined ? InputRequest.confirm(`${name}?`, options) : { [name]: ctx.answer }),
  });
const echo = tool({ name: 'echo', description: 'Echo', input: z.object({}), run: () => ({ echoed: true }) });

/** The model: fails without tools; calls `echo` for ever; else asks once and ends once answered. */
function reply(request: RecordedModelRequest) {
  const name = request.tools[0]?.name;
  if (name === undefined) throw new Error('the model is down');
  if (name === 'echo') return { toolCalls: [{ id: `call_echo_${request.messages.length}`, name, arguments: {} }] };
  return request.messages.length === 1
    ? { toolCalls: [{ id: `call_${name}`, name, arguments: {} }] }
    : { text: 'done' };
}

export function defineWireAgent(runtime: Runtime) {
  return defineAgent({
    name: 'wire',
    runtime,
    provider: scriptedProvider(Array.from({ length: 1_000 }, () => reply)),
    actions: {
      expire: () => ({ message: 'Ask, then stop waiting', tools: [confirm('approve_soon', { expiresIn: 200 })] }),
      fail: () => ({ message: 'Fail', tools: [] }),
      loop: () => ({ message: 'Loop', tools: [echo], maxToolTurns: 1 }),
      hold: () => ({ message: 'Ask, then be cancelled', tools: [confirm('approve_later')] }),
    },
  });
}
