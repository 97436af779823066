import { createRuntime, defineAgent, delegate } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { SpanCollector } from './span-collector.js';
import { buildTraceRuns, type SpanNode } from './trace-tree.js';

const names = (node: SpanNode): unknown => ({ [node.name]: node.children.map(names) });

describe('SpanCollector and buildTraceRuns', () => {
  it("groups a generation's spans into a tree; a delegated generation nests in its caller's, and its own trace names the caller", async () => {
    const spans = new SpanCollector();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [spans] });
    const runtime = createRuntime({ telemetry: openTelemetry({ tracerProvider }) });
    const billing = defineAgent({
      name: 'billing',
      runtime,
      provider: scriptedProvider([{ text: 'Charged twice.' }]),
      actions: { investigate: () => ({ message: 'Look', tools: [] }) },
    });
    const manager = defineAgent({
      name: 'manager',
      runtime,
      provider: scriptedProvider([
        { toolCalls: [{ id: 'call_billing', name: 'ask_billing', arguments: {} }] },
        { text: 'Sorted.' },
      ]),
      actions: {
        escalate: () => ({
          message: 'Help',
          tools: [delegate(billing, 'investigate', { name: 'ask_billing', description: 'Ask billing' })],
        }),
      },
    });

    const response = await manager.escalate().generateNow();
    const runs = buildTraceRuns(spans.runsOf(response.generationId));
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run?.roots.map(names)).toEqual([
      {
        'invoke_agent manager': [
          { 'chat scripted-1': [] },
          { 'execute_tool ask_billing': [{ 'invoke_agent billing': [{ 'chat scripted-1': [] }] }] },
          { 'chat scripted-1': [] },
        ],
      },
    ]);
    const root = run?.roots[0] as SpanNode;
    expect(root.startMs).toBe(0);
    // The OTel SDK stamps a span's start with Date.now() (whole milliseconds) and its end as start
    // plus a precise duration, so a child that ends just before its parent can read up to 1 ms
    // later: the run spans the root, give or take that millisecond.
    expect(run?.durationMs).toBeGreaterThanOrEqual(root.durationMs);
    expect(run?.durationMs).toBeLessThanOrEqual(root.durationMs + 1);
    for (const child of root.children) {
      expect(child.startMs + child.durationMs).toBeLessThanOrEqual(root.durationMs + 1);
    }

    expect(run?.parent).toBeUndefined();

    // The delegated generation's trace: its own spans only, naming the run it belongs to.
    const billingGeneration = root.children[1]?.children[0]?.attributes['interlude.generation_id'];
    expect(typeof billingGeneration).toBe('string');
    const billingRuns = buildTraceRuns(spans.runsOf(billingGeneration as string));
    expect(billingRuns).toHaveLength(1);
    expect(billingRuns[0]?.roots.map(names)).toEqual([{ 'invoke_agent billing': [{ 'chat scripted-1': [] }] }]);
    expect(billingRuns[0]?.parent).toEqual({
      generationId: response.generationId,
      agent: 'manager',
      action: 'escalate',
    });
    expect(billingRuns[0]?.traceId).toBe(run?.traceId);
    expect(billingRuns[0]?.roots[0]?.startMs).toBe(0);
    expect(spans.runsOf('gen_unknown')).toEqual([]);
    await tracerProvider.shutdown();
  });
});
