export type { OpenAIChatInstructionsRole } from './convert-to-openai-chat-messages.js';
export { OpenAIChatAdapter, type OpenAIChatOptions, openaiChat } from './openai-chat-adapter.js';
export type { OpenAIChatSettings } from './openai-chat-request.js';
