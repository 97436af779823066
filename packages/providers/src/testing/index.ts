export { readSseFrames, readSseStream, type SseFrame, SseFrameReader } from '../shared/sse-frames.js';
export {
  type AnthropicBlock,
  type AnthropicConversation,
  anthropicMessage,
  readAnthropicConversation,
  type ScriptedToolUse,
} from './anthropic-conversation.js';
export { anthropicReply, anthropicStreamEvents } from './anthropic-replies.js';
export { type Fixtures, loadFixtures } from './fixtures.js';
export { runToStop, type StoppedGeneration, throughJson } from './run-to-stop.js';
export { type ModelScript, type ScriptedTurn, startScriptedModel } from './scripted-model.js';
export { createSupportDesk, SUPPORT_INSTRUCTIONS } from './support-desk.js';
export {
  createWireServer,
  type RecordedRequest,
  type WireReply,
  type WireResponder,
  type WireServer,
} from './wire-server.js';
