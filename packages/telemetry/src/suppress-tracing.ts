import { type Context, createContextKey } from '@opentelemetry/api';

/**
 * The context key `@opentelemetry/core`'s `suppressTracing()` sets, which every OpenTelemetry
 * SDK tracer, propagator and instrumentation honours: a span started in such a context records
 * nothing. `createContextKey` is `Symbol.for` of the name, so this is the same key without a
 * dependency on `@opentelemetry/core` (an SDK package this one does not otherwise need).
 */
const SUPPRESS_TRACING_KEY = createContextKey('OpenTelemetry SDK Context Key SUPPRESS_TRACING');

/**
 * The context a model call's SDK runs in: the `chat` span is the active span (so a log line or
 * a user's own code still sees it), but the SDK's own instrumentation (`@anthropic-ai/sdk`'s
 * `anthropic.messages.create` span, an HTTP client's span) records nothing: the `chat` span
 * already says everything they would, usage included, and a second span with `gen_ai.usage.*`
 * makes token dashboards count the call twice.
 */
export function suppressedTracing(context: Context): Context {
  return context.setValue(SUPPRESS_TRACING_KEY, true);
}
