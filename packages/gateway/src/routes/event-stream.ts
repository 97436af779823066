import type { EventFilter, EventName, GenerationEvent } from '@interlude/core';
import { EVENT_NAMES, matchesFilter } from '@interlude/core/internal';
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { requireScope } from '../credentials.js';
import type { createEventReplay } from '../event-replay.js';
import type { GatewayEnv } from '../gateway-env.js';
import { GatewayError } from '../gateway-error.js';

/** A comment this often keeps proxies and browsers from dropping an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * `GET /v1/events`: the bus's events as Server-Sent Events (`event:` its name, `id:` its id,
 * `data:` its JSON), narrowed by `event` (names, comma-separated or repeated), `agent`, `action`
 * and `generation_id`. A client reconnecting with `Last-Event-ID` is first sent what it missed.
 */
export function addEventStream(app: Hono<GatewayEnv>, replay: ReturnType<typeof createEventReplay>): void {
  app.get('/v1/events', (c) => {
    requireScope(c.var.credential, 'read');
    const filter = readFilter(c);
    const lastEventId = c.req.header('last-event-id') ?? c.req.query('last_event_id');
    return streamSSE(c, async (stream) => {
      const queue: GenerationEvent[] = [];
      let wake: (() => void) | undefined;
      const following = replay.follow(lastEventId, (event) => {
        if (!matchesFilter(filter, event)) return;
        queue.push(event);
        wake?.();
      });
      queue.unshift(...following.missed.filter((event) => matchesFilter(filter, event)));
      let open = true;
      stream.onAbort(() => {
        open = false;
        following.stop();
        wake?.();
      });
      await stream.write(': connected\n\n');
      while (open) {
        const event = queue.shift();
        if (event !== undefined) {
          await stream.writeSSE({ event: event.event, id: event.id, data: JSON.stringify(event) });
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
    });
  });
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
