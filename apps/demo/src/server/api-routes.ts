import type { IncomingMessage, ServerResponse } from 'node:http';
import { ResumeError } from '@interlude/core';
import type { Desk } from '../desk/create-desk.js';
import { findTicket, TICKETS } from '../desk/tickets.js';
import { buildTraceRuns } from '../tracing/trace-tree.js';
import { streamEvents } from './event-stream.js';
import type { GenerationRegistry } from './generation-registry.js';
import { HttpError, readJson, sendJson } from './http-helpers.js';
import { pendingQuestions } from './pending-questions.js';

/** What the API routes work with. */
export interface ApiContext {
  desk: Desk;
  registry: GenerationRegistry;
}

/**
 * The desk's JSON API, used by the page and the terminal client alike. Returns false when the
 * path is not an API route. Answers are not among them: the page and the terminal client answer
 * through the gateway (`/v1/generations/{id}/answers`) with each question's answer token.
 */
export async function handleApi(
  context: ApiContext,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<boolean> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const method = request.method ?? 'GET';
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] !== 'api') return false;
  const [, resource, id, sub] = parts;
  try {
    if (method === 'GET' && resource === 'events' && id === undefined) {
      await streamEvents(context.desk.runtime.bus, request, response);
    } else if (method === 'GET' && resource === 'tickets' && id === undefined) {
      sendJson(response, 200, listTickets(context));
    } else if (method === 'POST' && resource === 'tickets' && id !== undefined && sub === 'run') {
      sendJson(response, 202, await runTicket(context, Number(id)));
    } else if (method === 'GET' && resource === 'generations' && id === undefined) {
      sendJson(response, 200, context.registry.list());
    } else if (method === 'GET' && resource === 'generations' && id !== undefined && sub === undefined) {
      const summary = context.registry.get(id);
      if (summary === undefined) throw new HttpError(404, `No generation ${id}`);
      sendJson(response, 200, summary);
    } else if (method === 'GET' && resource === 'generations' && id !== undefined && sub === 'events') {
      sendJson(response, 200, await context.desk.runtime.bus.events(id));
    } else if (method === 'GET' && resource === 'generations' && id !== undefined && sub === 'trace') {
      sendJson(response, 200, buildTraceRuns(context.desk.spans.runsOf(id)));
    } else if (method === 'POST' && resource === 'generations' && id !== undefined && sub === 'cancel') {
      const body = await readJson(request);
      const reason =
        typeof body['reason'] === 'string' && body['reason'].trim() !== '' ? body['reason'] : 'cancelled at the desk';
      await context.desk.runtime.cancel(id, reason.slice(0, 200));
      sendJson(response, 200, { cancelled: id });
    } else if (method === 'GET' && resource === 'pending') {
      sendJson(response, 200, await pendingQuestions(context.desk.runtime));
    } else {
      throw new HttpError(404, `No route ${method} ${url.pathname}`);
    }
  } catch (error) {
    sendError(response, error);
  }
  return true;
}

function listTickets(context: ApiContext) {
  return TICKETS.map((ticket) => ({
    ...ticket,
    storedMessages: context.desk.contextStore.contexts.get(`ticket:${ticket.id}`)?.messages.length ?? 0,
  }));
}

/** Runs of one ticket that may be open (queued, running or waiting for a person) at once. */
export const MAX_OPEN_RUNS_PER_TICKET = 3;
/** Runs open at once across the desk. */
export const MAX_OPEN_RUNS = 100;

/**
 * Queues a run of the ticket's agent for the worker; its events then tell the rest. Anyone who
 * can reach the page can start runs, and each paused one is kept until a person answers it, so
 * open runs are capped per ticket and overall (429 past either).
 */
async function runTicket(context: ApiContext, ticketId: number) {
  const ticket = findTicket(ticketId);
  if (context.registry.openCount(ticketId) >= MAX_OPEN_RUNS_PER_TICKET) {
    throw new HttpError(
      429,
      `Ticket #${ticketId} already has ${MAX_OPEN_RUNS_PER_TICKET} runs open: answer them first`,
    );
  }
  if (context.registry.openCount() >= MAX_OPEN_RUNS) {
    throw new HttpError(429, `${MAX_OPEN_RUNS} runs are open on the desk: answer some first`);
  }
  const agent = context.desk.agents.get(ticket.agent);
  if (agent === undefined) throw new HttpError(500, `No agent ${ticket.agent}`);
  const generation = agent.generation(ticket.action, { ticketId });
  const { generationId } = await generation.generateLater({ queue: context.desk.queue });
  context.registry.expect(generationId, ticket.agent, ticket.action, ticketId);
  return { generationId, ticketId, agent: ticket.agent, action: ticket.action };
}

function sendError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  if (error instanceof HttpError) {
    sendJson(response, error.status, { error: error.message });
  } else if (ResumeError.isInstance(error)) {
    const status = error.code === 'not_found' || error.code === 'unknown_call' ? 404 : 409;
    sendJson(response, status, { error: error.message, code: error.code });
  } else if (error instanceof TypeError) {
    sendJson(response, 400, { error: error.message });
  } else {
    console.error('[demo] request failed:', error instanceof Error ? error.message : error);
    sendJson(response, 500, { error: 'Internal error' });
  }
}
