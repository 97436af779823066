import type { Runtime } from '@interlude/core';
import { DEFAULT_QUEUE } from '@interlude/core/internal';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { rateBucketOf, readCredential } from './credentials.js';
import type { GatewayEnv } from './gateway-env.js';
import { errorResponse, GatewayError } from './gateway-error.js';
import { type GatewayKey, parseGatewayKeys } from './gateway-keys.js';
import { openApiDocument } from './openapi-document.js';
import { createRateLimiter, type RateLimit } from './rate-limiter.js';
import { type AnswerRouting, addAnswerRoutes } from './routes/answer-routes.js';
import { addEventStream } from './routes/event-stream.js';
import { addReadRoutes } from './routes/read-routes.js';

export interface GatewayOptions {
  /** The runtime whose generations it answers, with the agents defined on it (a secret answer resumes here). */
  runtime: Runtime;
  /** API keys: parsed `INTERLUDE_GATEWAY_KEYS` entries, or the text itself (`name:scopes:secret,…`). */
  keys: readonly GatewayKey[] | string;
  /** Origins allowed to call from a browser (CORS); default none. `*` allows any. */
  corsOrigins?: readonly string[];
  /** The largest request body, in bytes; default 64 KiB. */
  bodyLimitBytes?: number;
  /** Requests per credential per window; default 600 a minute. */
  rateLimit?: RateLimit;
  /** The queue answers are resumed on (`runtime.answerLater`); default `agents`. */
  queue?: string;
  /** `queue` (default): non-secret answers become jobs for a worker; `in_process`: the gateway resumes them all. */
  resume?: AnswerRouting['resume'];
  /** Where a failure of the gateway itself is told (never a request body); default `console.error`. */
  log?: (line: string) => void;
}

/** A gateway: a fetch handler (mount it, or serve it with `@hono/node-server`), started and closed with its runtime's bus. */
export interface Gateway {
  /** The Hono app, for mounting under another Hono app (`app.route('/', gateway.app)`). */
  readonly app: Hono<GatewayEnv>;
  /** The Fetch API handler (`getRequestListener(gateway.fetch)` for `node:http`). */
  fetch(request: Request): Response | Promise<Response>;
  /** Resolves once the bus answers (the deployment's id read): serve after it. */
  readonly ready: Promise<void>;
  /** Ends the event streams it serves (the runtime is the caller's to close). */
  close(): Promise<void>;
}

export const GATEWAY_DEFAULTS = {
  bodyLimitBytes: 64 * 1024,
  rateLimit: { requests: 600, windowMs: 60_000 },
} as const;

/**
 * The HTTP gateway to a deployment: pending questions, generations, live events (SSE) and answers,
 * authorised by scoped API keys or answer tokens, with CORS from an allow-list, a body limit and a
 * rate limit per credential. Errors are `{ "error": { "code", "message" } }` with the
 * `ResumeError` / `TrustError` code. `interlude-gateway <module>` serves the same from the environment.
 *
 * @example
 *   const gateway = createGateway({ runtime, keys: process.env.INTERLUDE_GATEWAY_KEYS ?? '' });
 *   serve({ fetch: gateway.fetch, port: 8090 });
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { runtime } = options;
  const keys = typeof options.keys === 'string' ? parseGatewayKeys(options.keys) : [...options.keys];
  const log = options.log ?? ((line: string) => console.error(line));
  const limiter = createRateLimiter(options.rateLimit ?? GATEWAY_DEFAULTS.rateLimit);
  const origins = new Set(options.corsOrigins ?? []);
  const app = new Hono<GatewayEnv>();

  app.onError((error, c) => {
    const { status, body, headers } = errorResponse(error);
    // Only the gateway's own failures are told, by name and code: never a body, so never an answer.
    if (status === 500) log(`interlude-gateway: ${c.req.method} ${c.req.path} failed: ${describe(error)}`);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.json(body, status as 500);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `No route ${c.req.method} ${c.req.path}` } }, 404));
  app.use(
    '*',
    cors({
      origin: (origin) => (origins.has('*') || origins.has(origin) ? origin : null),
      allowHeaders: ['authorization', 'content-type', 'last-event-id'],
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      maxAge: 600,
    }),
  );
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', async (c) => {
    const health = (await runtime.bus.health?.()) ?? { ok: true };
    return c.json(health, health.ok ? 200 : 503);
  });
  const document = openApiDocument();
  app.get('/v1/openapi.json', (c) => c.json(document));
  app.use(
    '/v1/*',
    bodyLimit({
      maxSize: options.bodyLimitBytes ?? GATEWAY_DEFAULTS.bodyLimitBytes,
      onError: () => {
        throw new GatewayError(
          413,
          'payload_too_large',
          `The body is larger than ${options.bodyLimitBytes ?? GATEWAY_DEFAULTS.bodyLimitBytes} bytes`,
        );
      },
    }),
  );
  app.use('/v1/*', async (c, next) => {
    const credential = readCredential(c.req.header('authorization'), keys);
    const verdict = limiter.take(rateBucketOf(credential));
    if (!verdict.allowed) {
      throw new GatewayError(429, 'rate_limited', `Too many requests: try again in ${verdict.retryAfterSeconds} s`, {
        'retry-after': String(verdict.retryAfterSeconds),
      });
    }
    c.set('credential', credential);
    await next();
  });
  addReadRoutes(app, runtime);
  const events = addEventStream(app, runtime.bus);
  addAnswerRoutes(app, runtime, { resume: options.resume ?? 'queue', queue: options.queue ?? DEFAULT_QUEUE });

  const ready = runtime.audience().then(() => undefined);
  // A bus that cannot answer yet is told by `ready`; the routes that need it fail on their own.
  ready.catch(() => undefined);
  return {
    app,
    fetch: (request) => app.fetch(request),
    ready,
    close: () => events.close(),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === 'string' ? ` (${code})` : ''}: ${error.message}`;
  }
  return typeof error;
}
