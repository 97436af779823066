import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createGateway } from '@interlude/gateway';
import type { Desk } from '../desk/create-desk.js';
import { handleApi } from './api-routes.js';
import { GenerationRegistry } from './generation-registry.js';
import { HttpError, sendJson } from './http-helpers.js';
import { allowedHosts, guardRequest } from './request-guards.js';
import { serveStatic } from './static-files.js';

/** The running page and API. */
export interface DemoServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves the page and the API over the desk on `host:port` (0 picks a free port). Every request
 * first passes `guardRequest`: its own Host and Origin only, JSON bodies only.
 */
export async function startDemoServer(
  desk: Desk,
  options: { host: string; port: number; allowedHosts?: readonly string[] },
): Promise<DemoServer> {
  const registry = new GenerationRegistry();
  await registry.follow(desk.runtime.bus);
  // On NATS, questions asked before this desk started are still waiting: the page can open them.
  registry.seed(await desk.runtime.pending());
  const context = { desk, registry };
  // Answers go through the gateway, authorised by the answer token `/api/pending` hands the page
  // with each question (no API key: the desk's people answer only what they are shown).
  const gateway = createGateway({ runtime: desk.runtime, keys: [], queue: desk.queue });
  await gateway.ready;
  const answerThroughGateway = getRequestListener(gateway.fetch);
  let hosts: ReadonlySet<string> = new Set();
  const server = createServer((request, response) => {
    void (async () => {
      try {
        guardRequest(request, hosts);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        sendJson(response, error.status, { error: error.message });
        return;
      }
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (path.startsWith('/v1/')) {
        await answerThroughGateway(request, response);
        return;
      }
      if (await handleApi(context, request, response)) return;
      if (request.method === 'GET' && (await serveStatic(path, response))) return;
      sendJson(response, 404, { error: `Not found: ${path}` });
    })().catch((error: unknown) => {
      console.error('[demo] request failed:', error instanceof Error ? error.message : error);
      if (!response.headersSent) sendJson(response, 500, { error: 'Internal error' });
    });
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  hosts = allowedHosts(options.host, port, options.allowedHosts);
  return {
    url: `http://${options.host}:${port}`,
    server,
    async close() {
      await registry.stop();
      await gateway.close();
      server.closeAllConnections();
      server.close();
    },
  };
}
