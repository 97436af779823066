import type { Usage } from '@interlude/core/provider';
import { type Attributes, type Histogram, type MeterProvider, ValueType } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOKEN_TYPE,
  INSTRUMENTATION_SCOPE,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_GEN_AI_CLIENT_TOKEN_USAGE,
} from './semconv.js';

/** The buckets the GenAI conventions advise for each histogram. */
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];

/**
 * The GenAI client metrics of every model call (`gen_ai.client.operation.duration`,
 * `gen_ai.client.token.usage`). With no meter provider registered the API's instruments do
 * nothing. The questions waiting are a gauge of the deployment's, not of one process's runs:
 * `observeQuestionsWaiting()`.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-metrics/
 */
export class GenAiMetrics {
  readonly #duration: Histogram;
  readonly #tokens: Histogram;

  constructor(meterProvider: MeterProvider) {
    const meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE);
    this.#duration = meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_DURATION, {
      description: 'GenAI operation duration',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.#tokens = meter.createHistogram(METRIC_GEN_AI_CLIENT_TOKEN_USAGE, {
      description: 'Number of input and output tokens used',
      unit: '{token}',
      valueType: ValueType.INT,
      advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
    });
  }

  /** One model call: its duration (with `error.type` when it failed) and, when it answered, its tokens. */
  modelCall(attributes: Attributes, seconds: number, outcome: { usage?: Usage | undefined; error?: Error }): void {
    const failure = outcome.error === undefined ? {} : { [ATTR_ERROR_TYPE]: outcome.error.name || 'Error' };
    this.#duration.record(seconds, { ...attributes, ...failure });
    const usage = outcome.usage;
    if (usage?.inputTokens !== undefined)
      this.#tokens.record(usage.inputTokens, { ...attributes, [ATTR_GEN_AI_TOKEN_TYPE]: 'input' });
    if (usage?.outputTokens !== undefined)
      this.#tokens.record(usage.outputTokens, { ...attributes, [ATTR_GEN_AI_TOKEN_TYPE]: 'output' });
  }
}
