// `@interlude/core/internal`: what Interlude's other packages (`bus`, `providers`, `telemetry`) and
// its tests need of core. Unstable: any release may change or remove any of it without notice.
// Applications import from `@interlude/core`, `@interlude/core/provider` and `@interlude/core/testing`.
export { type ActionPrompt, DEFAULT_MAX_TOOL_TURNS } from './agent/action.js';
export type {
  AgentBase,
  AgentConfig,
  InputRequestCallback,
  InputRequestCallbackEntry,
  InputRequestInfo,
} from './agent/agent-types.js';
export type {
  BusHealth,
  CheckpointStore,
  ClaimKind,
  ClaimLog,
  ClaimRecord,
  ClaimSlot,
  ClaimWrite,
  DeadLetter,
  Enqueued,
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
  LoggedEventHandler,
  PendingEntry,
  PendingIndex,
  PendingRecord,
  StoredCheckpoint,
  TimerHandler,
  TimerQueue,
  TimerVerdict,
} from './bus/bus.js';
export { matchesFilter, toEventFilter } from './bus/event-filter.js';
export { EVENT_NAMES, EVENT_VERSION, type EventData, type EventOf } from './bus/events.js';
export { epochOf, latestEpochs } from './bus/latest-epochs.js';
export { createMemoryBus, type MemoryBusOptions, tooManyDeliveries } from './bus/memory-bus.js';
export { readPosition } from './bus/memory-event-stream.js';
export { signTimer, timerMessageId, timerRefusal } from './bus/sign-timer.js';
export { createStopBound, type StopBound } from './bus/stop-bound.js';
export {
  CHECKPOINT_KEYS,
  CHECKPOINT_VERSION,
  type CompletedResult,
  orderCheckpoint,
  type StoredResult,
} from './checkpoint/checkpoint.js';
export { type CheckpointState, withCheckpointDefaults } from './checkpoint/checkpoint-defaults.js';
export {
  type CheckpointExpectations,
  type CheckpointSigning,
  type KeysLike,
  signCheckpoint,
  verifyCheckpointSignature,
} from './checkpoint/sign-checkpoint.js';
export { canResume, checkpointStanding, type PauseStanding } from './claims/can-resume.js';
export type { RunLease } from './claims/run-lease.js';
export { forgedClaimsSeen } from './claims/signed-claims.js';
export { FencedError } from './errors/fenced-error.js';
export { PAYLOAD_CODEC_ERROR_MARKER } from './errors/payload-codec-marker.js';
export { PayloadTooLargeError } from './errors/payload-too-large-error.js';
export type { ResumeErrorCode } from './errors/resume-error.js';
export type { TrustErrorCode } from './errors/trust-error.js';
export { newGenerationId } from './generation/generation.js';
export { MAX_NESTING_DEPTH, nestsDeeperThan } from './json/nesting-depth.js';
export { AUDIENCE_VARIABLE } from './runtime/create-runtime.js';
export { type JobOutcome, jobVerdict, runJob } from './runtime/run-job.js';
export { DEFAULT_QUEUE } from './runtime/runtime.js';
export { FILTERED } from './secrets/scrub.js';
export type {
  GenerationOutcome,
  GenerationTrace,
  GenerationTraceInfo,
  ModelCallContent,
  ModelCallInfo,
  ModelCallTrace,
  Telemetry,
  ToolCallTrace,
} from './telemetry/telemetry.js';
export type { ToolApprovalRule } from './tool/approval-rule.js';
export type { ToolDefinition } from './tool/tool.js';
export { isToolset } from './tool/toolset.js';
export {
  type AnswerTokenClaims,
  answerDigestOf,
  signAnswerToken,
  verifyAnswerToken,
} from './trust/answer-token.js';
export { canonicalJson } from './trust/canonical-json.js';
export {
  type CheckpointKeys,
  createCheckpointKeys,
  keyIdOf,
  MIN_KEY_LENGTH,
  SIGNATURE_LABELS,
  type SignaturePurpose,
  type TaggedVerdict,
} from './trust/checkpoint-keys.js';
export { CHECKPOINT_KEY_VARIABLE } from './trust/runtime-keys.js';
export { signJob, verifyJob } from './trust/sign-job.js';
export {
  type AnswerTokenOptions,
  answerTokensOf,
  authorizeAnswers,
  DEFAULT_ANSWER_TOKEN_TTL_MS,
} from './waiting/answer-tokens.js';
export { expiryJobFor, meetDeadline } from './waiting/meet-deadline.js';
export { storedPause } from './waiting/stored-pause.js';
