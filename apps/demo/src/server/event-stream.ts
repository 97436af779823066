import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Bus, EventFilter, EventName } from '@interlude/core';
import { EVENT_NAMES } from '@interlude/core/internal';

/**
 * Server-sent events of the bus's transitions, one bus subscription per open page or terminal:
 * `GET /api/events` streams everything, `?generation=<id>` one generation, `?event=input_requested`
 * one kind. Each frame is `event: transition` with the event as published (scrubbed of secrets by
 * core, so nothing here can leak one).
 */
export async function streamEvents(bus: Bus, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
  const filter: EventFilter = {};
  const generationId = query.get('generation');
  if (generationId) filter.generationId = generationId;
  const events = query
    .getAll('event')
    .filter((name): name is EventName => (EVENT_NAMES as readonly string[]).includes(name));
  if (events.length > 0) filter.event = events;

  // Subscribe before the headers go out: a client that sees the stream open has missed nothing.
  const early: string[] = [];
  let open = false;
  const subscription = await bus.subscribe(filter, (event) => {
    const frame = `event: transition\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
    if (open) response.write(frame);
    else early.push(frame);
  });
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  response.write(': connected\n\n');
  open = true;
  for (const frame of early) response.write(frame);
  // Proxies and browsers drop idle streams; a comment every 15 s keeps it open.
  const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  request.once('close', () => {
    clearInterval(keepAlive);
    void subscription.unsubscribe();
  });
}
