export type {
  Bus,
  CheckpointStore,
  EventFilter,
  EventHandler,
  Job,
  JobConsumer,
  JobDelivery,
  JobHandler,
  JobQueue,
  StoredCheckpoint,
  Subscription,
} from './bus/bus.js';
export {
  EVENT_NAMES,
  EVENT_VERSION,
  type EventData,
  type EventName,
  type EventOf,
  type GenerationEvent,
} from './bus/events.js';
export {
  CHECKPOINT_KEYS,
  CHECKPOINT_VERSION,
  type Checkpoint,
  type CompletedResult,
  orderCheckpoint,
} from './checkpoint/checkpoint.js';
export { InputRequiredError } from './errors/input-required-error.js';
export { InterludeError } from './errors/interlude-error.js';
export { ProviderError, type ProviderErrorOptions } from './errors/provider-error.js';
export { ResumeError, type ResumeErrorCode } from './errors/resume-error.js';
export { UnsupportedProviderError } from './errors/unsupported-provider-error.js';
export {
  type ChoiceOption,
  InputRequest,
  type InputRequestJSON,
  type InputRequestKind,
  type InputRequestOptions,
  type JsonValue,
} from './input-request/input-request.js';
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
export type {
  GenerationOutcome,
  GenerationTrace,
  GenerationTraceInfo,
  ModelCallTrace,
  Telemetry,
  ToolCallTrace,
} from './telemetry/telemetry.js';
