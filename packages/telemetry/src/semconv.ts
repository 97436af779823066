/**
 * The attribute names and values our spans use, in one place, so a reviewer can hold them
 * against the OpenTelemetry GenAI semantic conventions (v1.37+, `gen_ai.*`) and a backend query
 * can be written from this file alone. We keep our own copies instead of importing
 * `@opentelemetry/semantic-conventions/incubating`, whose names may change between releases;
 * `semconv.test.ts` checks that the `gen_ai.*` ones still match that package.
 *
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-agent-spans/
 */

/** `invoke_agent`, `chat` or `execute_tool`. */
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name';
/**
 * On every span of a generation, in every run and process: the agent's `conversationId(params)`,
 * the enclosing generation's (a delegation), or the generation id. What groups the two halves of
 * a paused generation in a backend that keeps no span links.
 */
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id';
/** The API vendor (`anthropic`, `openai`): core's `service`. */
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name';
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model';
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id';
export const ATTR_GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model';
/** The provider's own stop reasons (`end_turn`, `tool_calls`), as a string array. */
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons';
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens';
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens';
export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id';
/** Only with `captureContent: true`: tool arguments can hold personal data. */
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
/** Only with `captureContent: true`. */
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
/** `true` when the call streams its answer (SSE), `false` when not: core always says which. */
export const ATTR_GEN_AI_REQUEST_STREAM = 'gen_ai.request.stream';
/** The sampling settings the adapter sends (only those it sets). */
export const ATTR_GEN_AI_REQUEST_MAX_TOKENS = 'gen_ai.request.max_tokens';
export const ATTR_GEN_AI_REQUEST_TEMPERATURE = 'gen_ai.request.temperature';
export const ATTR_GEN_AI_REQUEST_TOP_P = 'gen_ai.request.top_p';
export const ATTR_GEN_AI_REQUEST_TOP_K = 'gen_ai.request.top_k';
/**
 * Only with `captureContent: true`, as JSON in the conventions' structured form (role and typed
 * parts): the messages sent (`chat`) or the generation's input (`invoke_agent`), the answer, the
 * instructions and the tools offered.
 */
export const ATTR_GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages';
export const ATTR_GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages';
export const ATTR_GEN_AI_SYSTEM_INSTRUCTIONS = 'gen_ai.system_instructions';
export const ATTR_GEN_AI_TOOL_DEFINITIONS = 'gen_ai.tool.definitions';
/** `input` or `output` on `gen_ai.client.token.usage`. */
export const ATTR_GEN_AI_TOKEN_TYPE = 'gen_ai.token.type';
/** Histogram (seconds) of every model call, `error.type` on a failed one. */
export const METRIC_GEN_AI_CLIENT_OPERATION_DURATION = 'gen_ai.client.operation.duration';
/** Histogram of each model call's input and output tokens (`gen_ai.token.type`). */
export const METRIC_GEN_AI_CLIENT_TOKEN_USAGE = 'gen_ai.client.token.usage';
/** Gauge of the questions waiting on a person now, by `gen_ai.agent.name` (Interlude's own; `observeQuestionsWaiting`). */
export const METRIC_INTERLUDE_INPUT_REQUESTS_WAITING = 'interlude.input_requests.waiting';
/** The stable `error.type` attribute: the error's `name`, or `tool_error` for an error result. */
export const ATTR_ERROR_TYPE = 'error.type';

/**
 * `true` on a root span whose generation paused for a person, and on the tool span that asked.
 * Absent (never `false`) otherwise, so `agent.awaiting_input = true` is the whole query.
 */
export const ATTR_AGENT_AWAITING_INPUT = 'agent.awaiting_input';
/** On a paused root span whose questions expire: when (ISO time), so a trace shows the deadline. */
export const ATTR_AGENT_INPUT_EXPIRES_AT = 'agent.input.expires_at';

/** Interlude's own attributes: what the GenAI conventions have no name for. */
export const ATTR_INTERLUDE_ACTION = 'interlude.action';
export const ATTR_INTERLUDE_GENERATION_ID = 'interlude.generation_id';
/** `true` on the root span of a run that resumed a checkpoint. */
export const ATTR_INTERLUDE_RESUMED = 'interlude.resumed';
/** How the run ended: `completed`, `awaiting_input`, `tool_turns_exceeded` or `failed`. */
export const ATTR_INTERLUDE_OUTCOME = 'interlude.outcome';
/** The wire API (`anthropic.messages`, `openai.chat`): core's `provider`. */
export const ATTR_INTERLUDE_PROVIDER_API = 'interlude.provider.api';
/** Core's normalised finish reason (`stop`, `tool-calls`, …), beside the provider's own. */
export const ATTR_INTERLUDE_FINISH_REASON = 'interlude.finish_reason';

export const GEN_AI_OPERATION_INVOKE_AGENT = 'invoke_agent';
export const GEN_AI_OPERATION_CHAT = 'chat';
export const GEN_AI_OPERATION_EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a tool that returned an error result instead of throwing. */
export const ERROR_TYPE_TOOL_ERROR = 'tool_error';

/** The instrumentation scope name our tracer reports. */
export const INSTRUMENTATION_SCOPE = '@interlude/telemetry';

/** The span event OpenTelemetry backends show as an exception, and its attributes. */
export const EVENT_EXCEPTION = 'exception';
export const ATTR_EXCEPTION_TYPE = 'exception.type';
export const ATTR_EXCEPTION_MESSAGE = 'exception.message';
export const ATTR_EXCEPTION_STACKTRACE = 'exception.stacktrace';
