import { afterEach, describe, expect, it } from 'vitest';
import { openTelemetry } from './open-telemetry.js';
import { refundRunInfo } from './test-generation-info.js';
import { createInMemoryTracing, spanTree } from './testing/index.js';
import { parseTraceparent } from './traceparent.js';

const tracing = createInMemoryTracing();
const telemetry = openTelemetry({ tracerProvider: tracing.tracerProvider });
afterEach(() => tracing.reset());

const refund = refundRunInfo;
const modelCall = { provider: 'anthropic.messages', service: 'anthropic', model: 'claude-sonnet-4-5' };

/** The refund scenario's first run, as core reports it: look up, ask, pause. */
function pausedRun(): string | undefined {
  const generation = telemetry.startGeneration(refund);
  const chat = generation.startModelCall(modelCall);
  chat.end({
    responseId: 'msg_1',
    responseModel: 'claude-sonnet-4-5-20250929',
    finishReason: 'tool-calls',
    rawFinishReason: 'tool_use',
    usage: { inputTokens: 120, outputTokens: 40, cacheReadTokens: 100, cacheWriteTokens: 20 },
  });
  generation.startToolCall({ toolName: 'lookup_order', toolCallId: 'call_1', arguments: { order_id: 7 } }).end({
    result: { total: 30 },
  });
  generation.startToolCall({ toolName: 'issue_refund', toolCallId: 'call_2', arguments: { amount: 30 } }).end({
    awaitingInput: true,
  });
  generation.end({ status: 'awaiting_input', inputExpiresAt: '2026-12-01T10:00:00.000Z' });
  return generation.traceparent;
}

describe('a generation paused and resumed', () => {
  it('draws each run as its own tree, the paused root marked awaiting input', () => {
    pausedRun();
    expect(spanTree(tracing.finishedSpans())).toEqual([
      {
        name: 'invoke_agent support',
        kind: 'INTERNAL',
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': 'support',
          'gen_ai.conversation.id': 'gen_1',
          'interlude.action': 'handle',
          'interlude.generation_id': 'gen_1',
          'interlude.outcome': 'awaiting_input',
          'agent.awaiting_input': true,
          'agent.input.expires_at': '2026-12-01T10:00:00.000Z',
        },
        status: { code: 'UNSET' },
        events: [],
        links: [],
        children: [
          {
            name: 'chat claude-sonnet-4-5',
            kind: 'CLIENT',
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.conversation.id': 'gen_1',
              'gen_ai.provider.name': 'anthropic',
              'gen_ai.request.model': 'claude-sonnet-4-5',
              'interlude.provider.api': 'anthropic.messages',
              'gen_ai.response.id': 'msg_1',
              'gen_ai.response.model': 'claude-sonnet-4-5-20250929',
              'gen_ai.response.finish_reasons': ['tool_use'],
              'interlude.finish_reason': 'tool-calls',
              'gen_ai.usage.input_tokens': 120,
              'gen_ai.usage.output_tokens': 40,
              'gen_ai.usage.cache_read.input_tokens': 100,
              'gen_ai.usage.cache_creation.input_tokens': 20,
            },
            status: { code: 'UNSET' },
            events: [],
            links: [],
            children: [],
          },
          {
            name: 'execute_tool lookup_order',
            kind: 'INTERNAL',
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.conversation.id': 'gen_1',
              'gen_ai.tool.name': 'lookup_order',
              'gen_ai.tool.call.id': 'call_1',
            },
            status: { code: 'UNSET' },
            events: [],
            links: [],
            children: [],
          },
          {
            name: 'execute_tool issue_refund',
            kind: 'INTERNAL',
            attributes: {
              'gen_ai.operation.name': 'execute_tool',
              'gen_ai.conversation.id': 'gen_1',
              'gen_ai.tool.name': 'issue_refund',
              'gen_ai.tool.call.id': 'call_2',
              'agent.awaiting_input': true,
            },
            status: { code: 'UNSET' },
            events: [],
            links: [],
            children: [],
          },
        ],
      },
    ]);
    expect(tracing.openSpanNames()).toEqual([]);
  });

  it('hands out the paused root as the traceparent, and links the resumed root to it', () => {
    const traceparent = pausedRun();
    const [pausedRoot] = tracing.finishedSpans().filter((span) => span.name === 'invoke_agent support');
    expect(traceparent).toBe(`00-${pausedRoot!.spanContext().traceId}-${pausedRoot!.spanContext().spanId}-01`);
    tracing.reset();

    const resumed = telemetry.startGeneration({ ...refund, resumed: true, linkedTraceparent: traceparent });
    resumed.startToolCall({ toolName: 'issue_refund', toolCallId: 'call_2', arguments: { amount: 30 } }).end({
      result: { refunded: 30 },
    });
    resumed.startModelCall(modelCall).end({ finishReason: 'stop', rawFinishReason: 'end_turn' });
    resumed.end({ status: 'completed' });

    const [root] = spanTree(tracing.finishedSpans());
    expect(root).toMatchObject({
      name: 'invoke_agent support',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'support',
        'interlude.action': 'handle',
        'interlude.generation_id': 'gen_1',
        'interlude.resumed': true,
        'interlude.outcome': 'completed',
      },
      links: [{ traceId: pausedRoot!.spanContext().traceId, spanId: pausedRoot!.spanContext().spanId, attributes: {} }],
      children: [{ name: 'execute_tool issue_refund' }, { name: 'chat claude-sonnet-4-5' }],
    });
    expect(root!.attributes).not.toHaveProperty('agent.awaiting_input');
    expect(root!.children[0]!.attributes).not.toHaveProperty('agent.awaiting_input');
    expect(root!.children[1]!.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
  });

  it("carries the app's conversation id on every span of both runs, and a delegation joins it", () => {
    const first = telemetry.startGeneration({ ...refund, conversationId: 'ticket-42' });
    first.startModelCall(modelCall).end({ finishReason: 'tool-calls' });
    const delegation = first.startToolCall({ toolName: 'billing_refund', toolCallId: 'call_9', arguments: {} });
    delegation.runInContext(() => {
      const inner = telemetry.startGeneration({ ...refund, agent: 'billing', generationId: 'gen_2' });
      inner.startModelCall(modelCall).end({ finishReason: 'stop' });
      inner.end({ status: 'completed' });
    });
    delegation.end({ awaitingInput: true });
    first.end({ status: 'awaiting_input' });
    const second = telemetry.startGeneration({
      ...refund,
      conversationId: 'ticket-42',
      resumed: true,
      linkedTraceparent: first.traceparent,
    });
    second.startModelCall(modelCall).end({ finishReason: 'stop' });
    second.end({ status: 'completed' });
    const spans = tracing.finishedSpans();
    expect(spans).toHaveLength(7);
    for (const span of spans) expect(span.attributes['gen_ai.conversation.id']).toBe('ticket-42');
  });

  it('ignores a checkpoint traceparent it cannot read instead of failing the resume', () => {
    const resumed = telemetry.startGeneration({ ...refund, resumed: true, linkedTraceparent: 'garbage' });
    resumed.end({ status: 'completed' });
    expect(spanTree(tracing.finishedSpans())[0]!.links).toEqual([]);
  });
});

describe('where a generation sits in a trace', () => {
  it("joins a job's caller as its child, in the caller's trace", () => {
    const caller = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const generation = telemetry.startGeneration({ ...refund, parentTraceparent: caller });
    generation.end({ status: 'completed' });
    const [root] = tracing.finishedSpans();
    expect(root!.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(root!.parentSpanContext).toMatchObject({ spanId: '00f067aa0ba902b7', isRemote: true });
  });

  it('nests a delegated generation under the tool call that runs it, with no global context manager', async () => {
    const outer = telemetry.startGeneration(refund);
    const delegation = outer.startToolCall({ toolName: 'billing_refund', toolCallId: 'call_9', arguments: {} });
    await delegation.runInContext(async () => {
      await Promise.resolve();
      const inner = telemetry.startGeneration({ ...refund, agent: 'billing', action: 'refund', generationId: 'gen_2' });
      await inner.runInContext(async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        inner.startModelCall(modelCall).end({ finishReason: 'stop' });
      });
      inner.end({ status: 'completed' });
    });
    delegation.end({ result: 'ok' });
    outer.end({ status: 'completed' });

    const names = (nodes: ReturnType<typeof spanTree>): unknown[] =>
      nodes.map((node) => (node.children.length === 0 ? node.name : { [node.name]: names(node.children) }));
    expect(names(spanTree(tracing.finishedSpans()))).toEqual([
      {
        'invoke_agent support': [
          { 'execute_tool billing_refund': [{ 'invoke_agent billing': ['chat claude-sonnet-4-5'] }] },
        ],
      },
    ]);
    const traceIds = new Set(tracing.finishedSpans().map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
  });

  it('keeps each body’s context across awaits while another body beside it ends first, and none after', async () => {
    const outer = telemetry.startGeneration(refund);
    const slow = outer.startToolCall({ toolName: 'slow_tool', toolCallId: 'call_slow', arguments: {} });
    const fast = outer.startToolCall({ toolName: 'fast_tool', toolCallId: 'call_fast', arguments: {} });
    const slowRun = slow.runInContext(async () => {
      const before = telemetry.currentTraceparent();
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The fast body has ended by now; this one must still see its own span.
      return [before, telemetry.currentTraceparent()];
    });
    const fastRun = fast.runInContext(async () => {
      const before = telemetry.currentTraceparent();
      await new Promise((resolve) => setTimeout(resolve, 1));
      return [before, telemetry.currentTraceparent()];
    });
    const [[slowBefore, slowAfter], [fastBefore, fastAfter]] = await Promise.all([slowRun, fastRun]);
    expect(parseTraceparent(slowBefore)).toBeDefined();
    expect(slowAfter).toBe(slowBefore);
    expect(fastAfter).toBe(fastBefore);
    expect(fastBefore).not.toBe(slowBefore);
    expect(telemetry.currentTraceparent()).toBeUndefined();
    slow.end({ result: 'ok' });
    fast.end({ result: 'ok' });
    outer.end({ status: 'completed' });
  });

  it('gives the active span as the traceparent a job should carry', () => {
    const generation = telemetry.startGeneration(refund);
    expect(telemetry.currentTraceparent()).toBeUndefined();
    const inside = generation.runInContext(() => telemetry.currentTraceparent());
    expect(inside).toBe(generation.traceparent);
    expect(parseTraceparent(inside)).toBeDefined();
    generation.end({ status: 'completed' });
  });
});

describe('ending', () => {
  it('ends call spans core left open when the run ends (an abandoned stream), once', () => {
    const generation = telemetry.startGeneration(refund);
    const chat = generation.startModelCall(modelCall);
    const tool = generation.startToolCall({ toolName: 'lookup_order', toolCallId: 'call_1', arguments: {} });
    expect(tracing.openSpanNames()).toHaveLength(3);
    generation.end({ status: 'completed' });
    expect(tracing.openSpanNames()).toEqual([]);

    chat.end({ finishReason: 'stop', responseId: 'late' });
    tool.end({ result: 'late' });
    generation.end({ status: 'failed' });
    expect(tracing.finishedSpans()).toHaveLength(3);
    expect(tracing.finishedSpans().find((span) => span.name.startsWith('chat'))!.attributes).not.toHaveProperty(
      'gen_ai.response.id',
    );
    expect(tracing.finishedSpans().find((span) => span.name.startsWith('invoke_agent'))!.attributes).toMatchObject({
      'interlude.outcome': 'completed',
    });
  });

  it('has no traceparent and costs nothing when no tracer provider is registered', () => {
    const untraced = openTelemetry();
    const generation = untraced.startGeneration(refund);
    generation.startModelCall(modelCall).end({ finishReason: 'stop' });
    generation.end({ status: 'completed' });
    expect(generation.traceparent).toBeUndefined();
    expect(tracing.finishedSpans()).toEqual([]);
  });
});
