import type { Bus, EventFilter, EventName, GenerationEvent } from '@interlude/core';
import { EVENT_NAMES } from '@interlude/core/internal';
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { requireScope } from '../credentials.js';
import type { GatewayEnv } from '../gateway-env.js';
import { GatewayError } from '../gateway-error.js';

/** A comment this often keeps proxies and browsers from dropping an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * `GET /v1/events`: the event log as Server-Sent Events (`event:` the event's name, `id:` its
 * position in the log, `data:` its JSON), narrowed by `event` (names, comma-separated or
 * repeated), `agent`, `action` and `generation_id`. It follows the bus's log (`bus.follow`), not
 * this process's memory: a client reconnecting with `Last-Event-ID`, to this gateway or to any
 * other on the same bus, restarted or not, is sent what it missed (as far as the log keeps it),
 * then what comes, each event once.
 */
export function addEventStream(app: Hono<GatewayEnv>, bus: Bus): { close(): Promise<void> } {
  /** Ends each stream being served, resolving once it stopped following the bus. */
  const streams = new Set<() => Promise<void>>();
  app.get('/v1/events', async (c) => {
    requireScope(c.var.credential, 'read');
    const filter = readFilter(c);
    const after = c.req.header('last-event-id') ?? c.req.query('last_event_id');
    if (after !== undefined && !/^[1-9][0-9]{0,15}$/.test(after)) {
      throw new GatewayError(400, 'invalid_request', 'Last-Event-ID must be the id of an event this stream sent');
    }
    const queue: { event: GenerationEvent; position?: string }[] = [];
    let wake: (() => void) | undefined;
    const take = (event: GenerationEvent, position?: string) => {
      queue.push(position === undefined ? { event } : { event, position });
      wake?.();
    };
    // Following before the response starts: a bus that cannot be followed is an error response.
    // A bus without a log order (a `Bus` of your own without `follow`) streams live events, without ids.
    const subscription = await (bus.follow === undefined
      ? bus.subscribe(filter, (event) => take(event))
      : bus.follow(filter, take, after === undefined ? {} : { after }));
    return streamSSE(c, async (stream) => {
      let open = true;
      let ended: () => void = () => undefined;
      const end = new Promise<void>((resolve) => {
        ended = resolve;
      });
      const stop = () => {
        open = false;
        wake?.();
        return end;
      };
      stream.onAbort(() => void stop());
      streams.add(stop);
      await stream.write(': connected\n\n');
      try {
        while (open) {
          const next = queue.shift();
          if (next !== undefined) {
            await stream.writeSSE({
              event: next.event.event,
              ...(next.position !== undefined && { id: next.position }),
              data: JSON.stringify(next.event),
            });
            continue;
          }
          let timer: NodeJS.Timeout | undefined;
          const woken = await new Promise<boolean>((resolve) => {
            wake = () => resolve(true);
            timer = setTimeout(() => resolve(false), KEEP_ALIVE_MS);
          });
          clearTimeout(timer);
          wake = undefined;
          if (!woken && open) await stream.write(': keep-alive\n\n');
        }
      } finally {
        await subscription.unsubscribe();
        streams.delete(stop);
        ended();
      }
    });
  });
  return {
    async close() {
      await Promise.all([...streams].map((stop) => stop()));
    },
  };
}

function readFilter(c: Context<GatewayEnv>): EventFilter {
  const names = c.req
    .queries('event')
    ?.flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names?.filter((name) => !(EVENT_NAMES as readonly string[]).includes(name)) ?? [];
  if (unknown.length > 0) {
    throw new GatewayError(
      400,
      'invalid_request',
      `Unknown event ${unknown.join(', ')}: one of ${EVENT_NAMES.join(', ')}`,
    );
  }
  const text = (name: string) => {
    const value = c.req.query(name);
    return value === undefined || value === '' ? undefined : value;
  };
  const agent = text('agent');
  const action = text('action');
  const generationId = text('generation_id');
  return {
    ...(names !== undefined && names.length > 0 && { event: names as EventName[] }),
    ...(agent !== undefined && { agent }),
    ...(action !== undefined && { action }),
    ...(generationId !== undefined && { generationId }),
  };
}
