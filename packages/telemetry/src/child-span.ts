import { type Context, type Span, trace } from '@opentelemetry/api';
import { runWithContext } from './active-context.js';
import { recordFailure } from './record-failure.js';

/**
 * What the model-call and tool-call spans share: a context to run in, a failure path, and an
 * end that happens once. Core may end a span twice (a stream that finishes after it was
 * abandoned, a root ending over a child); the second end is ignored, never an SDK warning.
 */
export abstract class ChildSpan {
  readonly #context: Context;
  readonly #onEnd: (child: ChildSpan) => void;
  #ended = false;

  /** `bodyContext` adjusts the context bodies run in (the model call's suppresses SDK spans). */
  protected constructor(
    protected readonly span: Span,
    parentContext: Context,
    onEnd: (child: ChildSpan) => void,
    bodyContext: (spanContext: Context) => Context = (spanContext) => spanContext,
  ) {
    this.#context = bodyContext(trace.setSpan(parentContext, span));
    this.#onEnd = onEnd;
  }

  runInContext<T>(body: () => T): T {
    return runWithContext(this.#context, body);
  }

  fail(error: Error): void {
    this.finish(() => this.recordFailure(error));
  }

  protected recordFailure(error: Error): void {
    recordFailure(this.span, error);
  }

  /** Ends a span its generation left open (a stream abandoned mid-call): no outcome to record. */
  abandon(): void {
    this.finish(() => {});
  }

  /** Runs `record` and ends the span, unless it already ended. */
  protected finish(record: () => void): void {
    if (this.#ended) return;
    this.#ended = true;
    record();
    this.span.end();
    this.#onEnd(this);
  }
}
