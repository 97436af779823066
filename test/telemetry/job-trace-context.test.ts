import { createWorker, memoryBus } from '@interlude/bus';
import { createRuntime, defineAgent, tool } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';
import { openTelemetry } from '@interlude/telemetry';
import { createInMemoryTracing } from '@interlude/telemetry/testing';
import { ATTR_GEN_AI_CONVERSATION_ID } from '@opentelemetry/semantic-conventions/incubating';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('a job queued inside a traced generation carries its trace context and conversation: the worker run is a child of the queuing call, in its conversation', async () => {
  const tracing = createInMemoryTracing();
  const runtime = createRuntime({
    bus: memoryBus(),
    telemetry: openTelemetry({ tracerProvider: tracing.tracerProvider }),
  });
  const reports = defineAgent({
    name: 'reports',
    runtime,
    provider: scriptedProvider([{ text: 'Report written.' }]),
    actions: { write: () => ({ message: 'Write the weekly report' }) },
  });
  const queued: string[] = [];
  const scheduleReport = tool({
    name: 'schedule_report',
    description: 'Write the report in the background',
    input: z.object({}),
    async run() {
      const { generationId } = await reports.write().generateLater();
      queued.push(generationId);
      return { queued: generationId };
    },
  });
  const manager = defineAgent({
    name: 'manager',
    runtime,
    provider: scriptedProvider([
      { toolCalls: [{ id: 'call_schedule', name: 'schedule_report', arguments: {} }] },
      { text: 'Queued.' },
    ]),
    conversationId: () => 'case-7',
    actions: { handle: () => ({ message: 'Get the report going', tools: [scheduleReport] }) },
  });
  const completed = new Promise<void>((resolve) => {
    void runtime.bus.subscribe({ event: 'completed', agent: 'reports' }, () => resolve());
  });
  const worker = createWorker({ runtime, agents: [reports], queue: 'agents', concurrency: 1 });

  await manager.handle().generateNow();
  await completed;
  await worker.stop();

  const spans = tracing.finishedSpans();
  const toolSpan = spans.find((span) => span.name === 'execute_tool schedule_report');
  const workerRoot = spans.find((span) => span.name === 'invoke_agent reports');
  expect(queued).toHaveLength(1);
  expect(toolSpan).toBeDefined();
  expect(workerRoot?.spanContext().traceId).toBe(toolSpan?.spanContext().traceId);
  expect(workerRoot?.parentSpanContext?.spanId).toBe(toolSpan?.spanContext().spanId);
  // `reports` names no conversation of its own: its run, queued from `manager`'s, joins that one.
  expect(spans.map((span) => span.name)).toContain('chat scripted-1');
  for (const span of spans)
    expect([span.name, span.attributes[ATTR_GEN_AI_CONVERSATION_ID]]).toEqual([span.name, 'case-7']);
  await tracing.shutdown();
});
