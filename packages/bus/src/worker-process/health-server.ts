import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Why the worker is not ready, or undefined when it is. */
export type Readiness = () => string | undefined;

/** The health endpoint, listening. */
export interface HealthServer {
  /** `http://host:port` it listens on (the real port when 0 was asked for). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `/healthz` and `/readyz` over HTTP, for a supervisor's probes (Kubernetes liveness and
 * readiness, a load balancer's health check). `/healthz` answers 200 whenever the process can
 * answer at all: a blocked event loop or a dead process answers nothing, which is what liveness
 * asks. `/readyz` answers 200 only while `readiness` finds nothing wrong, else 503 with the
 * reason, so a supervisor sends no work to (or waits for) a worker that is connecting, cut off
 * from NATS, or draining. Bodies are small JSON objects; anything else is 404.
 */
export async function startHealthServer(options: {
  port: number;
  host: string;
  readiness: Readiness;
}): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const reply = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(`${JSON.stringify(body)}\n`);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply(405, { error: 'GET only' });
    if (path === '/healthz') return reply(200, { status: 'alive' });
    if (path === '/readyz') {
      const reason = options.readiness();
      return reason === undefined ? reply(200, { status: 'ready' }) : reply(503, { status: 'not ready', reason });
    }
    reply(404, { error: 'GET /healthz or /readyz' });
  });
  // A probe's connection is short; none should hold the process open while it exits.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
