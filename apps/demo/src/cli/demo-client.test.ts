import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GenerationEvent } from '@interlude/core';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoClient } from './demo-client.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

/** A server whose event stream ends its lines with CRLF, as proxies and other servers may. */
async function serveEvents(frames: string[]): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const frame of frames) response.write(frame);
    response.end();
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the demo client', () => {
  it('follows an event stream whose lines end with CRLF, a frame cut across writes included', async () => {
    const first = { id: 'e1', event: 'input_requested' };
    const second = { id: 'e2', event: 'completed' };
    const url = await serveEvents([
      ': connected\r\n\r\n',
      `event: transition\r\ndata: ${JSON.stringify(first)}\r`,
      `\n\r\nevent: transition\r\ndata: ${JSON.stringify(second)}\r\n\r\n`,
    ]);
    const seen: GenerationEvent[] = [];
    let opened = false;
    await new DemoClient({ DEMO_URL: url }).follow('event=input_requested', {
      onOpen: () => {
        opened = true;
      },
      onEvent: (event) => seen.push(event),
    });
    expect(opened).toBe(true);
    expect(seen).toEqual([first, second]);
  });
});
