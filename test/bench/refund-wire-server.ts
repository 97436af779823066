/**
 * The benchmark's model server, run in its own process so its work never counts against the
 * client being measured: `node --import tsx test/bench/refund-wire-server.ts` prints
 * `port <n>` once it listens and answers `/v1/chat/completions` with the refund scenario until
 * it gets SIGTERM.
 */
import { createWireServer } from '@interlude/providers/testing';
import { answerRefundChat } from './refund-chat-responder.js';

const server = await createWireServer();
server.fallback('/v1/chat/completions', (request) => {
  // The server keeps every request for tests to read; a benchmark sends tens of thousands.
  server.requests.length = 0;
  return answerRefundChat(request);
});
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
console.log(`port ${new URL(server.url).port}`);
