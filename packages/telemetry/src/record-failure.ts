import { type Span, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
  EVENT_EXCEPTION,
} from './semconv.js';

/**
 * Marks `span` failed with `error`: status ERROR with the message, an `exception` event and
 * `error.type`. We write the event ourselves instead of `span.recordException()`: core hands us
 * a scrubbed copy of the error, and a copy's `stack` can still begin with the original,
 * unscrubbed message. So the stack trace we record keeps only the frames, under the scrubbed
 * message.
 */
export function recordFailure(span: Span, error: Error): void {
  const stacktrace = framesUnderMessage(error);
  span.addEvent(EVENT_EXCEPTION, {
    [ATTR_EXCEPTION_TYPE]: error.name,
    [ATTR_EXCEPTION_MESSAGE]: error.message,
    ...(stacktrace === undefined ? {} : { [ATTR_EXCEPTION_STACKTRACE]: stacktrace }),
  });
  span.setAttribute(ATTR_ERROR_TYPE, error.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

function framesUnderMessage(error: Error): string | undefined {
  if (typeof error.stack !== 'string') return undefined;
  const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line));
  const heading = error.message === '' ? error.name : `${error.name}: ${error.message}`;
  return [heading, ...frames].join('\n');
}
