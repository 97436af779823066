export { type ActionFunction, type ActionPrompt, DEFAULT_MAX_TOOL_TURNS } from './agent/action.js';
export type {
  Agent,
  AgentBase,
  AgentConfig,
  InputRequestCallback,
  InputRequestCallbackEntry,
  InputRequestInfo,
} from './agent/agent-types.js';
export { defineAgent } from './agent/define-agent.js';
export type {
  Bus,
  BusHealth,
  CheckpointStore,
  ClaimKind,
  ClaimLog,
  ClaimRecord,
  ClaimSlot,
  ClaimWrite,
  DeadLetter,
  EventFilter,
  EventHandler,
  EventSelector,
  InputTimer,
  Job,
  JobConsumer,
  JobConsumerStopOptions,
  JobDelivery,
  JobHandler,
  JobQueue,
  JobVerdict,
  PendingIndex,
  PendingRecord,
  PendingRecordFilter,
  StoredCheckpoint,
  Subscription,
  TimerQueue,
} from './bus/bus.js';
export { matchesFilter, toEventFilter } from './bus/event-filter.js';
export {
  EVENT_NAMES,
  EVENT_VERSION,
  type EventData,
  type EventName,
  type EventOf,
  type GenerationEvent,
} from './bus/events.js';
export { epochOf, latestEpochs } from './bus/latest-epochs.js';
export { createMemoryBus, type MemoryBusOptions, tooManyDeliveries } from './bus/memory-bus.js';
export { createStopBound, type StopBound } from './bus/stop-bound.js';
export {
  CHECKPOINT_KEYS,
  CHECKPOINT_VERSION,
  type Checkpoint,
  type CompletedResult,
  orderCheckpoint,
  type StoredResult,
} from './checkpoint/checkpoint.js';
export { type CheckpointState, withCheckpointDefaults } from './checkpoint/checkpoint-defaults.js';
export { rebuildCheckpoint } from './checkpoint/rebuild-checkpoint.js';
export {
  type CheckpointExpectations,
  type CheckpointSigning,
  type KeysLike,
  signCheckpoint,
  verifyCheckpointSignature,
} from './checkpoint/sign-checkpoint.js';
export { canResume, checkpointStanding, type PauseStanding } from './claims/can-resume.js';
export type { RunLease } from './claims/run-lease.js';
export type { ContextGeneration, ContextMessage, ContextStore } from './context/context-store.js';
export { type ContextBinding, hasContext } from './context/has-context.js';
export { memoryContextStore } from './context/memory-context-store.js';
export { type DelegateOptions, delegate } from './delegation/delegate.js';
export { FencedError } from './errors/fenced-error.js';
export { InputRequiredError } from './errors/input-required-error.js';
export { InterludeError } from './errors/interlude-error.js';
export { PayloadTooLargeError } from './errors/payload-too-large-error.js';
export { ProviderError, type ProviderErrorOptions } from './errors/provider-error.js';
export { ResumeError, type ResumeErrorCode } from './errors/resume-error.js';
export { TrustError, type TrustErrorCode } from './errors/trust-error.js';
export { UnsupportedProviderError } from './errors/unsupported-provider-error.js';
export { newGenerationId } from './generation/generation.js';
export type { GenerationResponse } from './generation/generation-response.js';
export type { GenerationStream, StreamPart } from './generation/generation-stream.js';
export type { Generation, ResumeInput, RunControl } from './generation/generation-types.js';
export type { AskedInputRequest } from './input-request/asked-input-request.js';
export type { InputExpiryOptions } from './input-request/input-expiry.js';
export {
  type ChoiceOption,
  InputRequest,
  type InputRequestJSON,
  type InputRequestKind,
  type InputRequestOptions,
  type JsonValue,
} from './input-request/input-request.js';
export { MAX_NESTING_DEPTH, nestsDeeperThan } from './json/nesting-depth.js';
export type {
  FinishReason,
  JsonSchema,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ProviderAdapter,
  ProviderMessage,
  ToolCall,
  ToolChoice,
  ToolResultMessage,
  ToolSpec,
  Usage,
} from './provider/provider-adapter.js';
export { AUDIENCE_VARIABLE, createRuntime } from './runtime/create-runtime.js';
export { type JobOutcome, jobVerdict, runJob } from './runtime/run-job.js';
export { DEFAULT_QUEUE, type Runtime, type RuntimeOptions } from './runtime/runtime.js';
export { FILTERED } from './secrets/scrub.js';
export { ScrubbedError } from './secrets/scrubbed-error.js';
export type {
  GenerationOutcome,
  GenerationTrace,
  GenerationTraceInfo,
  ModelCallTrace,
  Telemetry,
  ToolCallTrace,
} from './telemetry/telemetry.js';
export type { ApprovalRule, RequiresApproval, ToolApprovalRule } from './tool/approval-rule.js';
export {
  DECLINED_RESULT,
  type DispatchOptions,
  type DispatchResult,
  dispatchToolCalls,
  EXPIRED_RESULT,
  type OutcomeUnknownMetadata,
  type ToolStart,
} from './tool/dispatch-tool-calls.js';
export { idempotencyKeyOf } from './tool/idempotency-key.js';
export { type Tool, type ToolContext, type ToolDefinition, tool } from './tool/tool.js';
export { isToolset, type Toolset } from './tool/toolset.js';
export { canonicalJson } from './trust/canonical-json.js';
export {
  type CheckpointKeys,
  createCheckpointKeys,
  keyIdOf,
  MIN_KEY_LENGTH,
  type SignaturePurpose,
  type TaggedVerdict,
} from './trust/checkpoint-keys.js';
export { CHECKPOINT_KEY_VARIABLE } from './trust/runtime-keys.js';
export { signJob, verifyJob } from './trust/sign-job.js';
export type { PendingFilter, PendingGeneration } from './waiting/list-pending.js';
export { expiryJobFor, meetDeadline } from './waiting/meet-deadline.js';
