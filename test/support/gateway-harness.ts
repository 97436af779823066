import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { natsBus } from '@interlude/bus';
import { createRuntime, type Runtime } from '@interlude/core';
import type { Telemetry } from '@interlude/core/internal';
import { createGateway, type Gateway, type GatewayOptions } from '@interlude/gateway';
import { readSseStream } from '@interlude/providers/testing';
import { defineDesk } from './gateway-desk-agents.js';

/** Keys of every scope the gateway tests use; secrets long enough, never real. */
export const GATEWAY_TEST_KEYS = {
  reader: 'reader-secret-0123456789',
  answerer: 'answerer-secret-0123456789',
  admin: 'admin-secret-0123456789ab',
};
export const GATEWAY_TEST_KEY_TEXT = `reader:read:${GATEWAY_TEST_KEYS.reader},answerer:read+answer:${GATEWAY_TEST_KEYS.answerer},admin:*:${GATEWAY_TEST_KEYS.admin}`;

/** A gateway served over HTTP on a free port, on a runtime of its own with the `desk` agent. */
export interface ServedGateway {
  url: string;
  runtime: Runtime;
  gateway: Gateway;
  desk: ReturnType<typeof defineDesk>;
  /** What the gateway logged. */
  logs: string[];
  close(): Promise<void>;
}

export async function serveGateway(
  natsUrl: string,
  options: Partial<GatewayOptions> & { telemetry?: Telemetry } = {},
): Promise<ServedGateway> {
  const runtime = createRuntime({
    bus: natsBus({ servers: natsUrl, onError: () => undefined }),
    ...(options.telemetry !== undefined && { telemetry: options.telemetry }),
  });
  const desk = defineDesk(runtime);
  const logs: string[] = [];
  const gateway = createGateway({ keys: GATEWAY_TEST_KEY_TEXT, log: (line) => logs.push(line), ...options, runtime });
  await gateway.ready;
  const server = serve({ fetch: gateway.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runtime,
    gateway,
    desk,
    logs,
    async close() {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise((resolve) => server.close(resolve));
      await gateway.close();
      await runtime.close();
    },
  };
}

/** A request to the gateway: its status, headers and JSON body (undefined when it has none). */
export async function call(
  url: string,
  path: string,
  options: {
    method?: string;
    credential?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the JSON its route documents
): Promise<{ status: number; headers: Headers; body: any }> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${url}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(options.credential !== undefined && { authorization: `Bearer ${options.credential}` }),
      ...options.headers,
    },
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

/** Waits until the generation is paused and stored, and returns its questions' call ids. */
export async function pausedCalls(runtime: Runtime, generationId: string): Promise<string[]> {
  for (;;) {
    const stored = await runtime.bus.checkpoints.load(generationId);
    if (stored !== undefined) return stored.checkpoint.input_requests.map((request) => request.tool_call_id as string);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the generation's last event is `name`. */
export async function lastEventIs(runtime: Runtime, generationId: string, name: string): Promise<void> {
  for (;;) {
    if ((await runtime.bus.events(generationId)).at(-1)?.event === name) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One Server-Sent Events message. */
export interface SseMessage {
  event: string | undefined;
  id: string | undefined;
  data: string;
}

/** Opens an event stream; `next()` resolves with each message in turn, `close()` hangs up. */
export async function openEventStream(url: string, credential: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${credential}`, ...headers },
    signal: controller.signal,
  });
  // The providers' reader follows the standard (CRLF, CR or LF line ends, the last event id).
  const frames = readSseStream(response.body as ReadableStream<Uint8Array>);
  return {
    response,
    async next(): Promise<SseMessage> {
      for (;;) {
        const { value: frame, done } = await frames.next();
        if (done) throw new Error('the event stream ended');
        // A keep-alive: comments only.
        if (frame.data === '' && frame.event === undefined && frame.comments.length > 0) continue;
        return { event: frame.event, id: frame.id, data: frame.data };
      }
    },
    close: () => controller.abort(),
  };
}
