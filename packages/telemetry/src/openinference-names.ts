/**
 * OpenInference's names for what our spans say in GenAI terms, added with
 * `openTelemetry({ openInference: true })` so Arize Phoenix and Arize AX show agents, model calls,
 * tools, messages and sessions as they show their own instrumentations', with no converter
 * between. The names are OpenInference's (`@arizeai/openinference-semantic-conventions`);
 * `openinference.test.ts` holds ours against that package.
 *
 * @see https://github.com/Arize-ai/openinference/blob/main/spec/semantic_conventions.md
 */
export const OI_SPAN_KIND = 'openinference.span.kind';
export const OI_INPUT_VALUE = 'input.value';
export const OI_INPUT_MIME_TYPE = 'input.mime_type';
export const OI_OUTPUT_VALUE = 'output.value';
export const OI_OUTPUT_MIME_TYPE = 'output.mime_type';
export const OI_SESSION_ID = 'session.id';
export const OI_AGENT_NAME = 'agent.name';
export const OI_LLM_MODEL_NAME = 'llm.model_name';
export const OI_LLM_PROVIDER = 'llm.provider';
export const OI_LLM_SYSTEM = 'llm.system';
export const OI_LLM_INVOCATION_PARAMETERS = 'llm.invocation_parameters';
export const OI_LLM_INPUT_MESSAGES = 'llm.input_messages';
export const OI_LLM_OUTPUT_MESSAGES = 'llm.output_messages';
export const OI_LLM_TOOLS = 'llm.tools';
export const OI_LLM_TOKEN_COUNT_PROMPT = 'llm.token_count.prompt';
export const OI_LLM_TOKEN_COUNT_COMPLETION = 'llm.token_count.completion';
export const OI_LLM_TOKEN_COUNT_TOTAL = 'llm.token_count.total';
export const OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_READ = 'llm.token_count.prompt_details.cache_read';
export const OI_LLM_TOKEN_COUNT_PROMPT_DETAILS_CACHE_WRITE = 'llm.token_count.prompt_details.cache_write';
export const OI_TOOL_NAME = 'tool.name';
export const OI_MESSAGE_ROLE = 'message.role';
export const OI_MESSAGE_CONTENT = 'message.content';
export const OI_MESSAGE_TOOL_CALLS = 'message.tool_calls';
export const OI_MESSAGE_TOOL_CALL_ID = 'message.tool_call_id';
export const OI_TOOL_CALL_ID = 'tool_call.id';
export const OI_TOOL_CALL_FUNCTION_NAME = 'tool_call.function.name';
export const OI_TOOL_CALL_FUNCTION_ARGUMENTS = 'tool_call.function.arguments';
export const OI_TOOL_JSON_SCHEMA = 'tool.json_schema';

export const OI_KIND_AGENT = 'AGENT';
export const OI_KIND_LLM = 'LLM';
export const OI_KIND_TOOL = 'TOOL';
