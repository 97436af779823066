import type { AgentBase } from '../agent/agent-types.js';
import type { Bus } from '../bus/bus.js';
import type { ProviderAdapter, ProviderMessage, ToolCall } from '../provider/provider-adapter.js';
import type { ContextGeneration, ContextMessage } from './context-store.js';

/** The stored conversation as provider messages: user and assistant text turns, in order. */
export async function priorMessages(agent: AgentBase, params: unknown): Promise<ProviderMessage[]> {
  if (agent.context === undefined) return [];
  const stored = await agent.context.store.load(agent.context.keyFor(agent.name, params));
  return stored.flatMap((message) => asProviderMessages(message, agent.provider));
}

function asProviderMessages(message: ContextMessage, adapter: ProviderAdapter): ProviderMessage[] {
  if (message.role === 'user') return adapter.userMessages(String(message.content));
  if (message.role !== 'assistant') return [];
  const text = String(message.content);
  // An adapter that cannot write an assistant turn still gets the earlier answer, as context.
  return adapter.assistantMessages?.(text) ?? adapter.userMessages(`(Earlier, you answered: ${text})`);
}

export interface RunRecord {
  agent: AgentBase;
  action: string;
  params: unknown;
  generationId: string;
  fresh: boolean;
  userText: string;
  status: ContextGeneration['status'];
  finalText?: string;
}

/**
 * Records a run's part of the conversation: the user turn once (by the run that started the
 * generation), and only when the generation is over, each tool call once and the final answer.
 */
export async function recordRun(bus: Bus, record: RunRecord): Promise<void> {
  const { agent } = record;
  if (agent.context === undefined) return;
  const key = agent.context.keyFor(agent.name, record.params);
  const messages: ContextMessage[] = [];
  if (record.fresh) messages.push({ generationId: record.generationId, role: 'user', content: record.userText });
  const finished = record.status === 'completed' || record.status === 'tool_turns_exceeded';
  if (finished) {
    messages.push(...(await toolMessages(bus, record.generationId)));
    if (record.finalText !== undefined && record.finalText !== '') {
      messages.push({ generationId: record.generationId, role: 'assistant', content: record.finalText });
    }
  }
  if (messages.length > 0) await agent.context.store.append(key, messages);
  await agent.context.store.recordGeneration(key, {
    generationId: record.generationId,
    agent: agent.name,
    action: record.action,
    status: record.status,
  });
}

async function toolMessages(bus: Bus, generationId: string): Promise<ContextMessage[]> {
  const argumentsByCall = new Map<string, unknown>();
  const messages = new Map<string, ContextMessage>();
  for (const event of await bus.events(generationId)) {
    if (event.event === 'model_responded') {
      for (const call of event.data.tool_calls as ToolCall[]) argumentsByCall.set(call.id, call.arguments);
    }
    if (event.event === 'tool_completed' && !messages.has(event.data.tool_call_id)) {
      messages.set(event.data.tool_call_id, {
        generationId,
        role: 'tool',
        toolCallId: event.data.tool_call_id,
        content: {
          tool_name: event.data.tool_name,
          arguments: argumentsByCall.get(event.data.tool_call_id) ?? null,
          result: event.data.result,
          is_error: event.data.is_error,
        },
      });
    }
  }
  return [...messages.values()];
}
