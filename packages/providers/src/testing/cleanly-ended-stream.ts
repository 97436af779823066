import type { WireReply } from './wire-server.js';

/**
 * Stream events served as an SSE body that closes cleanly, with no cut connection and no
 * end-of-answer event, which is how a proxy that gives up half way looks to the SDK. Pass a
 * prefix of a recorded stream; the adapter must call it `stream_truncated`.
 *
 * @example
 * server.enqueue(path, cleanlyEndedStream(fixtures.chunks('refund-tool-calls').slice(0, 4)));
 */
export function cleanlyEndedStream(events: unknown[]): WireReply {
  return {
    raw: events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''),
    contentType: 'text/event-stream',
  };
}
