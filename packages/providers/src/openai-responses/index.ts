export { OpenAIResponsesAdapter, type OpenAIResponsesOptions, openaiResponses } from './openai-responses-adapter.js';
export type { OpenAIResponsesSettings } from './openai-responses-request.js';
