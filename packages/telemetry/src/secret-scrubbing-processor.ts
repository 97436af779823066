import type { Attributes, AttributeValue, Context, HrTime, Span, SpanStatus } from '@opentelemetry/api';
import { rememberSecrets, type SpanSecrets, secretsIn, secretsOf } from './span-secrets.js';

const FILTERED = '[FILTERED]';

/**
 * The part of an ended span the processor rewrites. Declared here rather than imported from
 * `@opentelemetry/sdk-trace-base`, an optional peer: this package's declarations must compile for
 * an app that installs only `@opentelemetry/api`. The SDK's `ReadableSpan` has these fields.
 */
export interface EndedSpan {
  readonly name: string;
  readonly attributes: Attributes;
  readonly events: ReadonlyArray<{ name: string; attributes?: Attributes; time: HrTime }>;
  readonly links: ReadonlyArray<{ attributes?: Attributes }>;
  readonly status: SpanStatus;
}

/** The SDK's `SpanProcessor` shape, so the processor can be listed in any provider's `spanProcessors`. */
export interface ScrubbingSpanProcessor {
  onStart(span: Span, parentContext: Context): void;
  onEnd(span: EndedSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * A span processor that scrubs secret answers from every span started inside a generation's
 * context before any exporter reads it: Interlude's own spans and those of instrumented libraries
 * a tool calls (an HTTP or database client recording an exception or a header on the active span).
 * It replaces the secrets in the span's name, attributes (keys and values, numbers in written
 * form), events (`recordException`'s message and stack included), links and status message.
 * Put it first in `spanProcessors`: processors run in order, and an exporter's processor placed
 * before it would send the span as it was.
 *
 * @example
 * new NodeTracerProvider({ spanProcessors: [secretScrubbingProcessor(), new BatchSpanProcessor(exporter)] }).register();
 */
export function secretScrubbingProcessor(): ScrubbingSpanProcessor {
  return {
    onStart(span: Span, parentContext: Context) {
      rememberSecrets(span, secretsIn(parentContext));
    },
    onEnd(span: EndedSpan) {
      const secrets = secretsOf(span)?.filter((each) => !each.isEmpty);
      if (secrets === undefined || secrets.length === 0) return;
      scrubSpan(span, (text) => secrets.reduce((scrubbed, each) => each.text(scrubbed), text));
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** Whether the scrubbing processor saw `span` start (`openTelemetry()` warns when it did not). */
export function scrubbingSaw(span: object): boolean {
  return secretsOf(span) !== undefined;
}

let warned = false;

/**
 * Said once per process, when a generation that holds a secret answer ran under a tracer provider
 * without `secretScrubbingProcessor()`: Interlude's own spans are scrubbed anyway, but what an
 * instrumented library wrote on them or on its own spans is exported as it was.
 */
export function warnUnscrubbedSpans(): void {
  if (warned) return;
  warned = true;
  process.emitWarning(
    "A generation with a secret answer was traced by a tracer provider without @interlude/telemetry's secretScrubbingProcessor(): spans instrumented libraries write inside a generation are exported unscrubbed. Put secretScrubbingProcessor() first in the provider's spanProcessors.",
    { code: 'INTERLUDE_UNSCRUBBED_SPANS' },
  );
}

/** Scrubs an ended span in place: what the SDK hands every later processor and exporter. */
function scrubSpan(span: EndedSpan, text: (value: string) => string): void {
  const writable = span as { -readonly [Field in keyof EndedSpan]: EndedSpan[Field] };
  writable.name = text(span.name);
  scrubAttributes(span.attributes, text);
  for (const event of span.events) {
    (event as { name: string }).name = text(event.name);
    if (event.attributes !== undefined) scrubAttributes(event.attributes, text);
  }
  for (const link of span.links) if (link.attributes !== undefined) scrubAttributes(link.attributes, text);
  if (span.status.message !== undefined) writable.status = { ...span.status, message: text(span.status.message) };
}

function scrubAttributes(attributes: Attributes, text: (value: string) => string): void {
  for (const [key, value] of Object.entries(attributes)) {
    const scrubbedKey = text(key);
    const scrubbed = value === undefined ? value : scrubValue(value, text);
    if (scrubbedKey !== key) delete attributes[key];
    if (scrubbedKey !== key || scrubbed !== value) attributes[scrubbedKey] = scrubbed;
  }
}

function scrubValue(value: AttributeValue, text: (value: string) => string): AttributeValue {
  if (typeof value === 'string') return text(value);
  if (typeof value === 'number') return text(String(value)) === String(value) ? value : FILTERED;
  if (!Array.isArray(value)) return value;
  const items = (value as ReadonlyArray<string | number | boolean | null | undefined>).map((item) =>
    typeof item === 'string' || typeof item === 'number' ? scrubValue(item, text) : item,
  );
  if (items.every((item, index) => item === value[index])) return value;
  // One item became `[FILTERED]`: an attribute array holds one type, so a number array becomes text.
  return items.some((item) => typeof item === 'string') && items.some((item) => typeof item === 'number')
    ? items.map((item) => (item === null || item === undefined ? item : String(item)))
    : (items as AttributeValue);
}

export type { SpanSecrets };
