import OpenAI from 'openai';
import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { assembleStreamedMessage, type StreamedTurn } from './assemble-streamed-message.js';
import { ticketMessage } from './refund-chat-responder.js';
import {
  createRefundWork,
  issueRefundInput,
  lookupOrderInput,
  type RefundWork,
  SUPPORT_INSTRUCTIONS,
} from './refund-work.js';

const TOOLS: ChatCompletionFunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Find an order by id',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'number' } },
        required: ['order_id'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'issue_refund',
      description: 'Refund part of an order',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'number' }, amount: { type: 'number' } },
        required: ['order_id', 'amount'],
        additionalProperties: false,
      },
    },
  },
];

/** What the hand-written loop keeps while it waits for the person: its own "checkpoint". */
interface PausedState {
  messages: ChatCompletionMessageParam[];
  calls: ChatCompletionMessageFunctionToolCall[];
  results: Record<string, unknown>;
  pending: string[];
}

/** One finished cycle of the bare loop: what the person was asked, and the final answer. */
export interface BareCycle {
  prompt: string;
  pausedBytes: number;
  text: string;
}

/** The model's tool-call turn, before any tool has run. */
export interface BareTurn {
  messages: ChatCompletionMessageParam[];
  calls: ChatCompletionMessageFunctionToolCall[];
}

/** A resumed turn with every result in: the request that gets the final answer. */
export interface BareResumedTurn {
  messages: ChatCompletionMessageParam[];
}

/**
 * The bare loop cut at its four steps (model call, tools then pause, tools on resume, model call),
 * so the floor benchmarks can drive exactly the same work from an XState machine or around NATS.
 */
export interface BareSteps {
  work: RefundWork;
  firstCall(ticketId: number): Promise<BareTurn>;
  /** Runs `lookup_order`, holds `issue_refund` for a person and serializes the state. */
  pauseTools(turn: BareTurn): { saved: string; prompt: string };
  /** Parses the saved state, runs (or declines) the held call and adds every result in call order. */
  resumeTools(saved: string, approved: boolean): BareResumedTurn;
  finalCall(turn: BareResumedTurn): Promise<string>;
}

/** `stream: true` asks for every completion in chunks (with usage, as Interlude and the peers do) and reads them to the end. */
export interface BareOptions {
  stream?: boolean;
  /** The tool work to count runs on: shared by the steps built for a pause and those built for its resume. */
  work?: RefundWork;
}

/**
 * The baseline: the refund scenario written by hand on the bare `openai` SDK, the least a
 * developer could write for the same behaviour. Call the model, run `lookup_order`, hold
 * `issue_refund` for a person, `JSON.stringify` the state, then parse it, refund, send every
 * result back in call order and read the final answer. Streamed, each completion's chunks are
 * assembled by hand (`assembleStreamedMessage`).
 */
export function createBareSteps(
  baseURL: string,
  { stream = false, work = createRefundWork() }: BareOptions = {},
): BareSteps {
  const client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
  const model = 'gpt-4.1-bench';
  const complete = async (messages: ChatCompletionMessageParam[]): Promise<StreamedTurn> => {
    if (stream) {
      const chunks = await client.chat.completions.create({
        model,
        messages,
        tools: TOOLS,
        stream: true,
        stream_options: { include_usage: true },
      });
      return assembleStreamedMessage(chunks);
    }
    const completion = await client.chat.completions.create({ model, messages, tools: TOOLS });
    const message = completion.choices[0]?.message;
    if (message === undefined) throw new Error('The model sent no choice');
    return { message, calls: (message.tool_calls ?? []).filter((call) => call.type === 'function') };
  };

  return {
    work,
    async firstCall(ticketId) {
      const messages: ChatCompletionMessageParam[] = [
        { role: 'developer', content: SUPPORT_INSTRUCTIONS },
        { role: 'user', content: ticketMessage(ticketId) },
      ];
      const { message, calls } = await complete(messages);
      messages.push(message);
      return { messages, calls };
    },
    pauseTools({ messages, calls }) {
      const results: Record<string, unknown> = {};
      const pending: string[] = [];
      let prompt = '';
      for (const call of calls) {
        const input: unknown = JSON.parse(call.function.arguments);
        if (call.function.name === 'lookup_order') results[call.id] = work.lookupOrder(lookupOrderInput.parse(input));
        else if (call.function.name === 'issue_refund') {
          const refund = issueRefundInput.parse(input);
          prompt = `Refund $${refund.amount} on order ${refund.order_id}?`;
          pending.push(call.id);
        }
      }
      const state: PausedState = { messages: messages.slice(1), calls, results, pending };
      return { saved: JSON.stringify(state), prompt };
    },
    resumeTools(saved, approved) {
      const state = JSON.parse(saved) as PausedState;
      for (const call of state.calls) {
        if (!state.pending.includes(call.id)) continue;
        const input = issueRefundInput.parse(JSON.parse(call.function.arguments));
        state.results[call.id] = approved ? work.issueRefund(input) : { error: 'declined by user' };
      }
      const messages: ChatCompletionMessageParam[] = [
        { role: 'developer', content: SUPPORT_INSTRUCTIONS },
        ...state.messages,
      ];
      for (const call of state.calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(state.results[call.id]) });
      }
      return { messages };
    },
    async finalCall({ messages }) {
      const { message } = await complete(messages);
      return typeof message.content === 'string' ? message.content : '';
    },
  };
}

/** The bare loop's whole cycle: pause, `JSON.stringify`, resume with the approval, answer. */
export function createBareSdkLoop(
  baseURL: string,
  options: BareOptions = {},
): { work: RefundWork; cycle(ticketId: number): Promise<BareCycle> } {
  const steps = createBareSteps(baseURL, options);
  return {
    work: steps.work,
    async cycle(ticketId) {
      const { saved, prompt } = steps.pauseTools(await steps.firstCall(ticketId));
      const text = await steps.finalCall(steps.resumeTools(saved, true));
      return { prompt, pausedBytes: Buffer.byteLength(saved), text };
    },
  };
}
