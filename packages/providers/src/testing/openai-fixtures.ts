import { readFileSync } from 'node:fs';
import type { WireReply } from './wire-server.js';

/** How an OpenAI API frames its streams on the wire. */
export type OpenAIStreamFraming = 'chat' | 'responses';

export interface OpenAIFixtures {
  /** A recorded JSON body, `<name>.json`. */
  json(name: string): unknown;
  /** A recorded stream, `<name>.chunks.txt`: one JSON event per line. */
  chunks(name: string): unknown[];
  /** The fixture as the wire server serves it: JSON, or SSE framed the way this API frames it. */
  reply(name: string, stream: boolean): WireReply;
}

/**
 * Reads the recorded payloads of one OpenAI adapter's `__fixtures__` folder and turns them into
 * wire-server replies: Chat streams end with `data: [DONE]`, Responses streams carry `event:`
 * lines, as the real APIs send them.
 *
 * @example
 * const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
 * server.enqueue('/v1/chat/completions', fixtures.reply('refund-tool-calls', true));
 */
export function openaiFixtures(directory: URL, framing: OpenAIStreamFraming): OpenAIFixtures {
  const read = (file: string) => readFileSync(new URL(file, directory), 'utf8');
  const fixtures: OpenAIFixtures = {
    json: (name) => JSON.parse(read(`${name}.json`)),
    chunks: (name) =>
      read(`${name}.chunks.txt`)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    reply(name, stream) {
      if (!stream) return { json: fixtures.json(name) };
      return framing === 'chat'
        ? { sse: fixtures.chunks(name), done: true }
        : { sse: fixtures.chunks(name), namedEvents: true };
    },
  };
  return fixtures;
}
