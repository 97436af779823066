import type { Tracer } from '@opentelemetry/api';
import type { GenAiMetrics } from './genai-metrics.js';
import type { ContentSettings } from './span-content.js';

/** What the call spans of one run share with its root. */
export interface RunSpanScope {
  tracer: Tracer;
  /** On every span of the run (`gen_ai.conversation.id`, and OpenInference's `session.id`). */
  conversationId: string;
  content: ContentSettings;
  metrics: GenAiMetrics;
}
