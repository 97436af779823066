import { createRuntime, defineAgent, type GenerationResponse } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing, type SpanNode, spanTree } from '@interlude/telemetry/testing';
import { afterEach, expect, it } from 'vitest';

const tracing = createInMemoryTracing();
afterEach(() => tracing.reset());

/** The app's conversation the refund belongs to: on every span of both runs. */
const CONVERSATION = 'ticket-42';

/** The refund scenario through real generations: lookup runs, refund asks, then it is confirmed. */
async function refundPausedAndResumed() {
  const scenario = createRefundScenario();
  const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }) });
  const support = defineAgent({
    name: 'support',
    runtime,
    provider: scriptedProvider(scenario.replies),
    actions: { handle: scenario.action },
    conversationId: ({ ticketId }) => `ticket-${ticketId}`,
  });
  const paused = await support.handle({ ticketId: 42 }).generateNow();
  const pausedSpans = spanTree(tracing.finishedSpans());
  const pausedRootSpan = tracing.finishedSpans().find((span) => span.name === 'invoke_agent support')!;
  tracing.reset();
  const done = await support
    .handle({ ticketId: 42 })
    .resumeNow({ checkpoint: JSON.parse(JSON.stringify(paused.checkpoint)), answers: { call_refund: true } });
  return { paused, done, pausedSpans, pausedRootSpan, resumedSpans: spanTree(tracing.finishedSpans()) };
}

const chatAttributes = (finishReason: string, rawFinishReason: string, responseId: string) => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'scripted',
  'gen_ai.request.model': 'scripted-1',
  'gen_ai.conversation.id': CONVERSATION,
  'gen_ai.request.stream': false,
  'interlude.provider.api': 'scripted.messages',
  'gen_ai.response.id': responseId,
  'gen_ai.response.finish_reasons': [rawFinishReason],
  'interlude.finish_reason': finishReason,
  'gen_ai.usage.input_tokens': 10,
  'gen_ai.usage.output_tokens': 5,
});

function leaf(name: string, kind: SpanNode['kind'], attributes: SpanNode['attributes']): SpanNode {
  return { name, kind, attributes, status: { code: 'UNSET' }, events: [], links: [], children: [] };
}

function toolSpan(toolName: string, toolCallId: string, extra: SpanNode['attributes'] = {}): SpanNode {
  return leaf(`execute_tool ${toolName}`, 'INTERNAL', {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': toolName,
    'gen_ai.tool.call.id': toolCallId,
    'gen_ai.conversation.id': CONVERSATION,
    ...extra,
  });
}

/** The `support` agent's root span of one run, with the attributes, links and children that run adds. */
function agentSpan(
  attributes: SpanNode['attributes'],
  links: SpanNode['links'],
  children: SpanNode['children'],
): SpanNode {
  return {
    name: 'invoke_agent support',
    kind: 'INTERNAL',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.conversation.id': CONVERSATION,
      'interlude.action': 'handle',
      ...attributes,
    },
    status: { code: 'UNSET' },
    events: [],
    links,
    children,
  };
}

it('draws the paused run: the model call, the lookup, and the refund that asked, under a root awaiting input', async () => {
  const { paused, pausedSpans } = await refundPausedAndResumed();
  expect(pausedSpans).toEqual([
    agentSpan(
      {
        'interlude.generation_id': paused.generationId,
        'interlude.outcome': 'awaiting_input',
        'agent.awaiting_input': true,
      },
      [],
      [
        leaf('chat scripted-1', 'CLIENT', chatAttributes('tool-calls', 'tool_use', 'msg_scripted_1')),
        toolSpan('lookup_order', 'call_lookup'),
        toolSpan('issue_refund', 'call_refund', { 'agent.awaiting_input': true }),
      ],
    ),
  ]);
  expect(tracing.openSpanNames()).toEqual([]);
});

it('draws the resumed run as a new root linked to the paused one, through the checkpoint traceparent', async () => {
  const { paused, done, pausedRootSpan, resumedSpans } = await refundPausedAndResumed();
  const pausedRoot = pausedRootSpan.spanContext();
  expect((paused as GenerationResponse).checkpoint?.traceparent).toBe(
    `00-${pausedRoot.traceId}-${pausedRoot.spanId}-01`,
  );
  expect(done.status).toBe('completed');
  expect(resumedSpans).toEqual([
    agentSpan(
      {
        'interlude.generation_id': paused.generationId,
        'interlude.resumed': true,
        'interlude.outcome': 'completed',
      },
      [{ traceId: pausedRoot.traceId, spanId: pausedRoot.spanId, attributes: {} }],
      [
        toolSpan('issue_refund', 'call_refund'),
        leaf('chat scripted-1', 'CLIENT', chatAttributes('stop', 'end_turn', 'msg_scripted_2')),
      ],
    ),
  ]);
  expect(tracing.openSpanNames()).toEqual([]);
});
