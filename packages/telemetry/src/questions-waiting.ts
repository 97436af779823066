import type { Runtime } from '@interlude/core';
import { type MeterProvider, metrics, type ObservableResult, ValueType } from '@opentelemetry/api';
import { ATTR_GEN_AI_AGENT_NAME, INSTRUMENTATION_SCOPE, METRIC_INTERLUDE_INPUT_REQUESTS_WAITING } from './semconv.js';

/** What `observeQuestionsWaiting()` returns: `stop()` ends the observation (the gauge then reports nothing). */
export interface QuestionsWaiting {
  stop(): void;
}

/**
 * Reports `interlude.input_requests.waiting`, an observable gauge of the questions waiting on a
 * person now for each agent of the runtime (`gen_ai.agent.name`, 0 when none): at each collection
 * it reads `runtime.pending()`, the deployment's durable view (what a pause left, less what was
 * answered, cancelled or expired, whichever process did it). So it never reads below zero, and
 * every process that reports it for an agent reports the same number: aggregate it across
 * instances with `max` or last value, not a sum. A collection reads the pending index and each
 * waiting generation's checkpoint and claim, so it costs requests in proportion to the questions
 * waiting; `interlude-worker` reports it when it exports metrics. A collection during an outage
 * reports nothing (the SDK logs the failure).
 *
 * @example
 * const waiting = observeQuestionsWaiting(runtime, { meterProvider });
 * // … on shutdown
 * waiting.stop();
 */
export function observeQuestionsWaiting(
  runtime: Pick<Runtime, 'pending' | 'agents'>,
  options: { meterProvider?: MeterProvider | undefined } = {},
): QuestionsWaiting {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE);
  const gauge = meter.createObservableGauge(METRIC_INTERLUDE_INPUT_REQUESTS_WAITING, {
    description: "Questions waiting on a person now, in the runtime's deployment",
    unit: '{request}',
    valueType: ValueType.INT,
  });
  const observe = async (result: ObservableResult) => {
    const waiting = new Map<string, number>([...runtime.agents.keys()].map((agent) => [agent, 0]));
    if (waiting.size === 0) return;
    for (const paused of await runtime.pending()) {
      const count = waiting.get(paused.agent);
      if (count !== undefined) waiting.set(paused.agent, count + paused.inputRequests.length);
    }
    for (const [agent, count] of waiting) result.observe(count, { [ATTR_GEN_AI_AGENT_NAME]: agent });
  };
  gauge.addCallback(observe);
  return { stop: () => gauge.removeCallback(observe) };
}
