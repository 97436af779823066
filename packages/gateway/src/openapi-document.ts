import { z } from 'zod';
import * as wire from './wire-schemas.js';

/** Every schema the document names, generated from the zod schemas the routes validate with. */
const SCHEMAS = [
  wire.jsonSchema,
  wire.inputRequestSchema,
  wire.pendingGenerationSchema,
  wire.pendingListSchema,
  wire.generationStatusSchema,
  wire.generationSchema,
  wire.answersRequestSchema,
  wire.answersResponseSchema,
  wire.cancelRequestSchema,
  wire.cancelResponseSchema,
  wire.errorSchema,
  wire.healthSchema,
];

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (id: string) => ({ content: { 'application/json': { schema: ref(id) } } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [String(status), { description: ERROR_MEANING[status], ...json('Error') }]),
  );

const ERROR_MEANING: Record<number, string> = {
  400: 'The request or an answer is invalid (invalid_request, invalid_confirm, invalid_choice, schema_mismatch, missing_answer, unknown_call, …)',
  401: 'No credential, an unknown key, or an answer token that does not verify (missing_credential, invalid_credential, invalid_answer_token)',
  403: 'The key lacks the scope, or the token is for another question (insufficient_scope, answer_token_mismatch)',
  404: 'No such generation or pause (not_found)',
  409: 'Answered or cancelled already (already_resumed, cancelled), or the pause cannot be resumed here',
  410: 'The question or the token expired (expired, expired_answer_token)',
  413: 'The body is larger than the gateway takes (payload_too_large)',
  429: 'Too many requests for this credential (rate_limited); see Retry-After',
};

const generationId = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const keyOnly = { security: [{ apiKey: [] }] };
const answer = { security: [{ apiKey: [] }, { answerToken: [] }] };

/**
 * The gateway's OpenAPI 3.1 document (served at `/v1/openapi.json`): every route, its statuses and
 * the schemas of its bodies, those generated from `wire-schemas.ts`.
 */
export function openApiDocument(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(wire.gatewaySchemas, { uri: (id) => `#/components/schemas/${id}` });
  const ids = SCHEMAS.map((schema) => wire.gatewaySchemas.get(schema)?.id as string);
  const components = Object.fromEntries(
    ids.map((id) => {
      const { $schema: _dialect, $id: _uri, id: _id, ...schema } = schemas[id] as Record<string, unknown>;
      return [id, schema];
    }),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Interlude gateway',
      version: '1',
      description:
        'Answer paused Interlude generations over HTTP. Authorization: Bearer <API key> (scopes read, answer, cancel) or Bearer <answer token> (answers its one question).',
    },
    paths: {
      '/v1/pending': {
        get: {
          summary: 'The generations waiting on a person, oldest first',
          ...keyOnly,
          parameters: ['agent', 'action'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
          responses: { '200': { description: 'The list', ...json('PendingList') }, ...errors(401, 403, 429) },
        },
      },
      '/v1/generations/{id}': {
        get: {
          summary: "A generation's status, from its event log",
          ...keyOnly,
          parameters: [generationId],
          responses: { '200': { description: 'The generation', ...json('Generation') }, ...errors(401, 403, 404, 429) },
        },
      },
      '/v1/generations/{id}/answers': {
        post: {
          summary: 'Answer the questions of a paused generation',
          ...answer,
          parameters: [generationId],
          requestBody: { required: true, ...json('AnswersRequest') },
          responses: {
            '200': { description: 'Resumed in the gateway (a secret answer)', ...json('AnswersResponse') },
            '202': { description: 'Queued for a worker', ...json('AnswersResponse') },
            ...errors(400, 401, 403, 404, 409, 410, 413, 429),
          },
        },
      },
      '/v1/generations/{id}/cancel': {
        post: {
          summary: 'Cancel a paused generation',
          ...keyOnly,
          parameters: [generationId],
          requestBody: { required: false, ...json('CancelRequest') },
          responses: {
            '200': { description: 'Cancelled', ...json('CancelResponse') },
            ...errors(400, 401, 403, 404, 409, 413, 429),
          },
        },
      },
      '/v1/events': {
        get: {
          summary: 'Live events as Server-Sent Events; resumable with Last-Event-ID',
          description:
            'Each message: `event:` the event name, `id:` its position in the event log, `data:` the event JSON as published on the bus. A reconnect with Last-Event-ID (to any gateway of the deployment) is sent the events it missed, read from the log, then the live ones.',
          ...keyOnly,
          parameters: [
            { name: 'event', in: 'query', schema: { type: 'string' }, description: 'Event names, comma-separated' },
            { name: 'agent', in: 'query', schema: { type: 'string' } },
            { name: 'action', in: 'query', schema: { type: 'string' } },
            { name: 'generation_id', in: 'query', schema: { type: 'string' } },
            { name: 'Last-Event-ID', in: 'header', schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' } },
          ],
          responses: {
            '200': { description: 'The stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            ...errors(400, 401, 403, 429),
          },
        },
      },
      '/v1/openapi.json': {
        get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1' } } },
      },
      '/healthz': {
        get: { summary: 'The process is up', responses: { '200': { description: 'Up', ...json('Health') } } },
      },
      '/readyz': {
        get: {
          summary: 'The bus answers',
          responses: {
            '200': { description: 'Ready', ...json('Health') },
            '503': { description: 'Not ready', ...json('Health') },
          },
        },
      },
    },
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A key of INTERLUDE_GATEWAY_KEYS' },
        answerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An answer token (response.answerTokens, runtime.answerToken()): answers its one question',
        },
      },
    },
  };
}
