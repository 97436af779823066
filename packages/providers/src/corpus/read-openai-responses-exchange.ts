import { readSseJson } from '../shared/sse-frames.js';
import { firstNonEmpty, parseArguments, type ReadTurn } from './read-turn.js';

type Json = Record<string, unknown>;

/**
 * Reads a Responses answer, JSON or a raw SSE body, as the API documents it: a stream's answer is
 * the response its terminal event (`response.completed` / `response.incomplete`) carries, with
 * the items of `response.output_item.done` standing in for an output the server left empty; an
 * `error` event or `response.failed` is the answer's error. Output items go back as they came.
 *
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export function readOpenAIResponsesExchange(body: string, streamed: boolean): ReadTurn {
  if (!streamed) return readResponse(JSON.parse(body) as Json, undefined);
  const done: Json[] = [];
  let created: Json | undefined;
  for (const { value: event } of readSseJson(body)) {
    if (event['type'] === 'response.created') created = event['response'] as Json;
    if (event['type'] === 'response.output_item.done') done[event['output_index'] as number] = event['item'] as Json;
    if (event['type'] === 'response.completed' || event['type'] === 'response.incomplete') {
      const response = event['response'] as Json;
      const output = (response['output'] as Json[] | undefined) ?? [];
      return readResponse({ ...response, output: output.length > 0 ? output : done.filter(Boolean) }, undefined);
    }
    // The reference documents `code` and `message` on the event; the API was recorded nesting them in `error`.
    if (event['type'] === 'error')
      return readResponse(created ?? {}, readError((event['error'] as Json | undefined) ?? event));
    if (event['type'] === 'response.failed')
      return readResponse(event['response'] as Json, readError((event['response'] as Json)['error'] as Json));
  }
  return readResponse(created ?? {}, undefined);
}

function readResponse(response: Json, error: ReadTurn['error']): ReadTurn {
  const output = (response['output'] as Json[] | undefined) ?? [];
  let text = '';
  for (const item of output) {
    if (item['type'] !== 'message') continue;
    for (const part of (item['content'] as Json[] | undefined) ?? [])
      if (part['type'] === 'output_text') text += String(part['text']);
  }
  return {
    text,
    toolCalls: output
      .filter((item) => item['type'] === 'function_call')
      .map((item) => ({
        id: String(item['call_id'] ?? ''),
        name: String(item['name']),
        arguments: parseArguments(item['arguments']),
      })),
    stopReason: typeof response['status'] === 'string' ? response['status'] : undefined,
    responseId: firstNonEmpty(undefined, response['id']),
    responseModel: firstNonEmpty(undefined, response['model']),
    error,
    replayed: output,
  };
}

function readError(error: Json | undefined): NonNullable<ReadTurn['error']> {
  return {
    code: error?.['code'],
    ...(typeof error?.['type'] === 'string' && error['type'] !== 'error' ? { type: error['type'] } : {}),
    ...(typeof error?.['message'] === 'string' ? { message: error['message'] } : {}),
  };
}
