import type { InputRequest } from '../input-request/input-request.js';
import type { ToolCall } from '../provider/provider-adapter.js';
import type { GenerationResponse } from './generation-response.js';

/** Parts a streamed generation yields, in the order they happen. */
export type StreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'tool-result'; toolCallId: string; toolName: string; result: unknown; isError: boolean }
  | { type: 'input-request'; request: InputRequest }
  | { type: 'end'; response: GenerationResponse };

/** An async iterable of parts; after the loop, `response` is what `generateNow()` would have returned. */
export interface GenerationStream extends AsyncIterable<StreamPart> {
  readonly response: Promise<GenerationResponse>;
}

/** The producer side: the generation pushes parts, the consumer pulls them. */
export interface StreamSink {
  push(part: StreamPart): void;
  /** Aborted when the consumer stops iterating before the end. */
  readonly signal: AbortSignal;
}

/** Wires a generation run to a consumer: parts are buffered until read; leaving the loop early aborts the run. */
export function createGenerationStream(run: (sink: StreamSink) => Promise<GenerationResponse>): GenerationStream {
  const buffer: StreamPart[] = [];
  const waiting: Array<() => void> = [];
  const controller = new AbortController();
  let finished = false;
  let failure: unknown;
  const wake = () => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const sink: StreamSink = {
    push(part) {
      if (controller.signal.aborted) return;
      buffer.push(part);
      wake();
    },
    signal: controller.signal,
  };
  const response = run(sink).then(
    (result) => {
      sink.push({ type: 'end', response: result });
      finished = true;
      wake();
      return result;
    },
    (error: unknown) => {
      failure = error;
      finished = true;
      wake();
      throw error;
    },
  );
  // The caller may only read the parts; a failure still surfaces through the iterator.
  response.catch(() => {});
  return {
    response,
    [Symbol.asyncIterator](): AsyncIterator<StreamPart> {
      return {
        async next() {
          for (;;) {
            const part = buffer.shift();
            if (part !== undefined) return { value: part, done: false };
            if (finished) {
              if (failure !== undefined) throw failure;
              return { value: undefined, done: true };
            }
            await new Promise<void>((resolve) => waiting.push(resolve));
          }
        },
        async return() {
          if (!finished) controller.abort(new Error('The stream was abandoned by its reader'));
          return { value: undefined, done: true };
        },
      };
    },
  };
}
