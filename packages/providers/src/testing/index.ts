export { readSseFrames, readSseStream, type SseFrame, SseFrameReader } from '../shared/sse-frames.js';
export {
  type AnthropicBlock,
  anthropicMessage,
  readAnthropicConversation,
  type ScriptedConversation,
  type ScriptedToolUse,
} from './anthropic-conversation.js';
export { anthropicReply, anthropicStreamEvents } from './anthropic-replies.js';
export { type Fixtures, loadFixtures } from './fixtures.js';
export type { ChatCompletionBody } from './openai-chat-chunks.js';
export { readOpenAIChatConversation } from './openai-chat-conversation.js';
export { openaiChatCompletion, openaiChatReply, openaiChatToolCall } from './openai-chat-replies.js';
export { runToStop, type StoppedGeneration, throughJson } from './run-to-stop.js';
export {
  type ModelScript,
  type ScriptedModelFormat,
  type ScriptedTurn,
  startScriptedModel,
} from './scripted-model.js';
export { createSupportDesk, SUPPORT_INSTRUCTIONS } from './support-desk.js';
export {
  createWireServer,
  type RecordedRequest,
  type WireReply,
  type WireResponder,
  type WireServer,
} from './wire-server.js';
