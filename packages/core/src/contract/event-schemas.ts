import { z } from 'zod';
import { checkpointSchema } from './checkpoint-schema.js';
import { inputRequestSchema } from './question-schema.js';
import { sealable } from './sealed-payload-schema.js';

const messages = z.array(z.unknown()).describe('Provider-native messages, as the provider API takes them.');
const finishReason = z.enum(['stop', 'tool-calls', 'length', 'content-filter', 'pause', 'error', 'other']);
export const errorSchema = z
  .object({ name: z.string(), message: z.string(), code: z.string().exactOptional() })
  .meta({ id: 'ErrorSummary' });
const callIds = z.array(z.string());

/** Each event's `data`, by event name: snake_case, with no secret answer. */
export const eventDataSchemas = {
  started: z.object({
    service: z.string(),
    provider: z.string(),
    model: z.string(),
    action_name: z.string(),
    messages: messages.describe('The opening user turn, provider-native.'),
    params: z
      .unknown()
      .describe(
        "The action's params in their JSON form (null for none), so a pause can be rebuilt and signed from the log.",
      ),
    traceparent: z.string().exactOptional(),
    conversation_id: z
      .string()
      .exactOptional()
      .describe("The conversation the generation inherited, which its checkpoint's `conversation_id` carries."),
  }),
  model_responded: z.object({
    messages: messages.describe(
      'Everything appended to the conversation since the previous event that appended: the turn tool results, then the response.',
    ),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.unknown() })),
    text: z.string(),
    finish_reason: finishReason,
    raw_finish_reason: z.string().exactOptional(),
    usage: z
      .object({
        inputTokens: z.number().exactOptional(),
        outputTokens: z.number().exactOptional(),
        cacheReadTokens: z.number().exactOptional(),
        cacheWriteTokens: z.number().exactOptional(),
      })
      .exactOptional(),
    response_id: z.string().exactOptional(),
    tool_turns: z.number(),
    tool_choice_cleared: z.boolean(),
    continuation: z
      .literal(true)
      .exactOptional()
      .describe('The provider paused its own turn: the loop called it again.'),
  }),
  tool_started: z.object({
    tool_call_id: z.string(),
    tool_name: z.string(),
    attempt: z.number().describe('1 the first time; more when a call whose outcome was unknown runs again.'),
    reason: z.literal('outcome_unknown').exactOptional(),
  }),
  tool_completed: z.object({
    tool_call_id: z.string(),
    tool_name: z.string(),
    result: z.unknown(),
    is_error: z.boolean(),
  }),
  input_requested: z.object({
    input_requests: z.array(inputRequestSchema),
    tool_call_turn_size: z.number(),
    approval_tool_calls: callIds,
    approved_tool_calls: callIds,
    mcp_tool_calls: callIds,
    delegations: z.record(z.string(), checkpointSchema).exactOptional(),
    tool_turns: z.number(),
    tool_choice_cleared: z.boolean(),
    claim_slot: z.number().describe('The claim-log slot a resume of this pause claims.'),
    traceparent: z.string().exactOptional(),
    expires_at: z.string().exactOptional().describe('When the paused checkpoint expires.'),
  }),
  resumed: z.object({
    answered_tool_calls: callIds.describe('Calls answered, by id; the values stay out.'),
    declined_tool_calls: callIds.describe('Calls answered `false`.'),
    traceparent: z.string().exactOptional(),
  }),
  input_expired: z.object({
    input_expires_at: z.string(),
    unanswered_tool_calls: callIds,
    answered_tool_calls: callIds.describe('Calls given their `on_expiry` answer.'),
  }),
  tool_turns_exceeded: z.object({ tool_turns: z.number(), max_tool_turns: z.number(), messages }),
  completed: z.object({ text: z.string(), finish_reason: finishReason, raw_finish_reason: z.string().exactOptional() }),
  failed: z.object({ error: errorSchema }),
  cancelled: z.object({
    reason: z.string(),
    claim_slot: z.number().describe('The claim-log slot the cancel took.'),
  }),
} as const;

export type ContractEventName = keyof typeof eventDataSchemas;

/** The envelope every event shares, with its name and `data` as given. */
function eventSchema<Name extends ContractEventName>(name: Name) {
  return z
    .object({
      version: z.literal(1),
      id: z
        .string()
        .describe('`<generation_id>:<run>:<index>`, and `:<epoch>` past the first: a retried publish is stored once.'),
      event: z.literal(name),
      agent: z.string(),
      action: z.string(),
      generation_id: z.string(),
      run: z.string().describe('`start`, or a digest of the checkpoint a resume started from.'),
      index: z.number().describe('Position within the run, from 0.'),
      epoch: z.number().exactOptional().describe('Absent for the first holder of a run; 2 and up for each takeover.'),
      time: z.string(),
      data: sealable(eventDataSchemas[name]),
    })
    .meta({ id: `Event_${name}` });
}

/** Every event, by name: what is published on `…gen.<agent>.<action>.<generation_id>.<event>`. */
export const eventSchemas = {
  started: eventSchema('started'),
  model_responded: eventSchema('model_responded'),
  tool_started: eventSchema('tool_started'),
  tool_completed: eventSchema('tool_completed'),
  input_requested: eventSchema('input_requested'),
  resumed: eventSchema('resumed'),
  input_expired: eventSchema('input_expired'),
  tool_turns_exceeded: eventSchema('tool_turns_exceeded'),
  completed: eventSchema('completed'),
  failed: eventSchema('failed'),
  cancelled: eventSchema('cancelled'),
} as const;

/** Any event, told apart by its `event`. */
export const generationEventSchema = z.discriminatedUnion('event', [
  eventSchemas.started,
  eventSchemas.model_responded,
  eventSchemas.tool_started,
  eventSchemas.tool_completed,
  eventSchemas.input_requested,
  eventSchemas.resumed,
  eventSchemas.input_expired,
  eventSchemas.tool_turns_exceeded,
  eventSchemas.completed,
  eventSchemas.failed,
  eventSchemas.cancelled,
]);
