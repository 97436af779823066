import type { GenerationResponse, GenerationStream } from '@interlude/core';
import { expectScenario } from './scenario-error.js';

/** What a caller saw reading a streamed generation to its end. */
export interface ReadGenerationStream {
  response: GenerationResponse;
  toolCalls: number;
  inputRequests: number;
}

/**
 * Reads an Interlude stream to its `end` part, as a caller forwarding parts to a user interface
 * does, and checks that what it showed matches the response: the text deltas joined are the
 * response's text, and the `end` part carries the same response `stream.response` resolves to.
 */
export async function readGenerationStream(name: string, stream: GenerationStream): Promise<ReadGenerationStream> {
  let text = '';
  let toolCalls = 0;
  let inputRequests = 0;
  let ended: GenerationResponse | undefined;
  for await (const part of stream) {
    if (part.type === 'text-delta') text += part.text;
    else if (part.type === 'tool-call') toolCalls += 1;
    else if (part.type === 'input-request') inputRequests += 1;
    else if (part.type === 'end') ended = part.response;
  }
  const response = await stream.response;
  expectScenario(ended === response, `${name}: the stream ended without its response`);
  expectScenario(text === response.text, `${name}: streamed ${JSON.stringify(text)}, answered ${response.text}`);
  return { response, toolCalls, inputRequests };
}
