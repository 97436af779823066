import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received, body parsed as JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * What the server answers with:
 * - `json`: a JSON body (status 200 unless `status` says otherwise);
 * - `sse`: server-sent events, one frame per item. Each frame gets `event: <item.type>` when
 *   `namedEvents` is true (Anthropic needs it), and `data: [DONE]` is added when `done` is true
 *   (OpenAI Chat sends it). `cutAfter` ends the connection after that many frames, mid-stream;
 * - `raw`: a body sent as is, for malformed answers.
 */
export type WireReply =
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { sse: unknown[]; namedEvents?: boolean; done?: boolean; cutAfter?: number }
  | { raw: string; status?: number; contentType?: string };

export type WireResponder = WireReply | ((request: RecordedRequest) => WireReply);

export interface WireServer {
  /** `http://127.0.0.1:<port>`; Anthropic takes it as is, OpenAI wants `${url}/v1`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies for a path (`/v1/messages`, `/v1/chat/completions`, `/v1/responses`), served in order. */
  enqueue(path: string, ...replies: WireResponder[]): void;
  /** Answers every request on `path` that finds its queue empty. */
  fallback(path: string, responder: WireResponder): void;
  /** Requests still queued, by path: a test can check every scripted reply was used. */
  pending(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * A local HTTP server that speaks the providers' wire formats from scripted or recorded replies,
 * so adapters are tested through the official SDKs exactly as users run them, never by mocking
 * the SDK. Listens on loopback, on `port` (default: a free one).
 */
export async function createWireServer(options: { port?: number } = {}): Promise<WireServer> {
  const queues = new Map<string, WireResponder[]>();
  const fallbacks = new Map<string, WireResponder>();
  const requests: RecordedRequest[] = [];

  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path,
      headers: request.headers,
      body: text === '' ? undefined : safeParse(text),
    };
    requests.push(recorded);
    const responder = queues.get(path)?.shift() ?? fallbacks.get(path);
    if (responder === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'not_found', message: `no scripted reply for ${path}` } }));
      return;
    }
    const reply = typeof responder === 'function' ? responder(recorded) : responder;
    await send(reply, response);
  }

  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue(path, ...replies) {
      const queue = queues.get(path) ?? [];
      queue.push(...replies);
      queues.set(path, queue);
    },
    fallback(path, responder) {
      fallbacks.set(path, responder);
    },
    pending() {
      const counts: Record<string, number> = {};
      for (const [path, queue] of queues) if (queue.length > 0) counts[path] = queue.length;
      return counts;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function send(reply: WireReply, response: ServerResponse): Promise<void> {
  if ('json' in reply) {
    response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.json));
    return;
  }
  if ('raw' in reply) {
    response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
    response.end(reply.raw);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const frames = reply.sse.map((item) => formatFrame(item, reply.namedEvents === true));
  if (reply.done === true) frames.push('data: [DONE]\n\n');
  const limit = reply.cutAfter ?? frames.length;
  for (const frame of frames.slice(0, limit)) {
    response.write(frame);
  }
  if (reply.cutAfter !== undefined) {
    // A connection that drops mid-stream, as a proxy timeout or a crashed upstream does. The
    // frames are flushed first: destroying at once could drop them, headers included, and the
    // client would see a refused request instead of a stream that stopped.
    await new Promise<void>((resolve) => response.write('', () => resolve()));
    response.destroy();
    return;
  }
  response.end();
}

function formatFrame(item: unknown, namedEvents: boolean): string {
  const type = typeof item === 'object' && item !== null && 'type' in item ? String(item.type) : undefined;
  const eventLine = namedEvents && type !== undefined ? `event: ${type}\n` : '';
  return `${eventLine}data: ${JSON.stringify(item)}\n\n`;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
