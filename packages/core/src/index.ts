export type { ActionFunction } from './agent/action.js';
export type { Agent } from './agent/agent-types.js';
export { defineAgent } from './agent/define-agent.js';
export type { Bus, EventFilter, Subscription } from './bus/bus.js';
export type { EventName, GenerationEvent } from './bus/events.js';
export type { Checkpoint } from './checkpoint/checkpoint.js';
export { rebuildCheckpoint } from './checkpoint/rebuild-checkpoint.js';
export type { ContextGeneration, ContextMessage, ContextStore } from './context/context-store.js';
export { type ContextBinding, hasContext } from './context/has-context.js';
export { memoryContextStore } from './context/memory-context-store.js';
export { type DelegateOptions, delegate } from './delegation/delegate.js';
export { InputRequiredError } from './errors/input-required-error.js';
export { InterludeError } from './errors/interlude-error.js';
export { ProviderError } from './errors/provider-error.js';
export { ResumeError } from './errors/resume-error.js';
export { TrustError } from './errors/trust-error.js';
export type { GenerationResponse } from './generation/generation-response.js';
export type { GenerationStream, StreamPart } from './generation/generation-stream.js';
export type { Generation, ResumeInput, RunControl } from './generation/generation-types.js';
export {
  type AskedInputRequest,
  type AskedInputRequestJSON,
  type ChoiceOption,
  InputRequest,
  type InputRequestJSON,
  type InputRequestKind,
  type InputRequestOptions,
  type JsonValue,
} from './input-request/input-request.js';
export type { ProviderAdapter } from './provider/provider-adapter.js';
export { createRuntime } from './runtime/create-runtime.js';
export type { Runtime, RuntimeOptions } from './runtime/runtime.js';
export { ScrubbedError } from './secrets/scrubbed-error.js';
export type { ApprovalRule } from './tool/approval-rule.js';
export { idempotencyKeyOf } from './tool/idempotency-key.js';
export { type Tool, type ToolContext, tool } from './tool/tool.js';
export type { Toolset } from './tool/toolset.js';
export type { PendingGeneration } from './waiting/list-pending.js';
