import type { Runtime } from '@interlude/core';
import type { Hono } from 'hono';
import { requireScope } from '../credentials.js';
import type { GatewayEnv } from '../gateway-env.js';
import { GatewayError } from '../gateway-error.js';
import { generationSummary } from '../generation-summary.js';

/** `GET /v1/pending` and `GET /v1/generations/{id}`: what waits, and where one generation stands. */
export function addReadRoutes(app: Hono<GatewayEnv>, runtime: Runtime): void {
  app.get('/v1/pending', async (c) => {
    requireScope(c.var.credential, 'read');
    const agent = c.req.query('agent');
    const action = c.req.query('action');
    const filter = {
      ...(agent !== undefined && agent !== '' && { agent }),
      ...(action !== undefined && action !== '' && { action }),
    };
    const pending = (await runtime.pending(filter)).map((generation) => ({
      generation_id: generation.generationId,
      agent: generation.agent,
      action: generation.action,
      input_requests: generation.inputRequests.map((request) => request.toJSON()),
      asked_at: generation.askedAt.toISOString(),
      ...(generation.expiresAt !== undefined && { expires_at: generation.expiresAt.toISOString() }),
    }));
    return c.json({ pending });
  });

  app.get('/v1/generations/:id', async (c) => {
    requireScope(c.var.credential, 'read');
    const id = c.req.param('id');
    const summary = generationSummary(await runtime.bus.events(id));
    if (summary === undefined)
      throw new GatewayError(404, 'not_found', `No generation ${id} is known to this deployment`);
    return c.json(summary);
  });
}
