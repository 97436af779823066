import { type Fixtures, loadFixtures } from './fixtures.js';
import type { WireReply } from './wire-server.js';

/** How an OpenAI API frames its streams on the wire. */
export type OpenAIStreamFraming = 'chat' | 'responses';

export interface OpenAIFixtures extends Fixtures {
  /** The fixture as the wire server serves it: `<name>.json`, or `<name>.chunks.txt` as SSE framed the way this API frames it. */
  reply(name: string, stream: boolean): WireReply;
}

/**
 * The recorded payloads of one OpenAI adapter's `__fixtures__` folder (see `loadFixtures`), plus
 * the wire-server reply for each: Chat streams end with `data: [DONE]`, Responses streams carry
 * `event:` lines, as the real APIs send them. One test body then runs streamed and not.
 *
 * @example
 * const fixtures = openaiFixtures(new URL('./__fixtures__/', import.meta.url), 'chat');
 * server.enqueue('/v1/chat/completions', fixtures.reply('refund-tool-calls', true));
 */
export function openaiFixtures(directory: URL, framing: OpenAIStreamFraming): OpenAIFixtures {
  const fixtures = loadFixtures(directory);
  return {
    ...fixtures,
    reply(name, stream) {
      if (!stream) return { json: fixtures.json(name) };
      return framing === 'chat'
        ? { sse: fixtures.chunks(name), done: true }
        : { sse: fixtures.chunks(name), namedEvents: true };
    },
  };
}
