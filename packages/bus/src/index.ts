export { credsAuthenticator, nkeyAuthenticator } from '@nats-io/transport-node';
export { DEFAULT_UNAVAILABLE_AFTER_MS } from './bus-availability.js';
export { BusConnectionError, type BusConnectionErrorCode } from './bus-connection-error.js';
export { BusUnavailableError } from './bus-unavailable-error.js';
export { AES_GCM_SCHEME, type AesGcmCodecOptions, aesGcmCodec } from './codec/aes-gcm-codec.js';
export { isSealedPayload, type PayloadCodec, type SealedPayload } from './codec/payload-codec.js';
export { PayloadCodecError, type PayloadCodecErrorCode } from './codec/payload-codec-error.js';
export { PAYLOAD_KEY_VARIABLE, payloadKeyIdOf } from './codec/payload-keys.js';
export { SIGNATURE_HEADER } from './event-signature.js';
export { EventsExpiredError } from './events-expired-error.js';
export { type MemoryBusOptions, memoryBus } from './memory-bus.js';
export { type NatsBusOptions, natsBus } from './nats-bus.js';
export { MINIMUM_SERVER_VERSION } from './nats-server-support.js';
export { RETENTION_DEFAULTS } from './nats-streams.js';
export { StreamConfigError, type StreamDifference } from './stream-config-error.js';
export {
  ALL_STREAMS,
  assertSubjectToken,
  CHECKPOINT_BUCKET,
  CHECKPOINT_STREAM,
  CLAIMS_STREAM,
  CLAIMS_SUBJECT_ROOT,
  claimSubject,
  DEAD_STREAM,
  DEAD_SUBJECT_ROOT,
  deadLetterSubject,
  EVENTS_STREAM,
  EVENTS_SUBJECT_ROOT,
  eventSubject,
  filterSubjects,
  generationSubject,
  JOBS_STREAM,
  JOBS_SUBJECT_ROOT,
  jobSubject,
  PENDING_BUCKET,
  PENDING_STREAM,
  TIMERS_STREAM,
  TIMERS_SUBJECT_ROOT,
} from './subjects.js';
export { createWorker, type Worker, type WorkerOptions, type WorkerStopOptions } from './worker.js';
export { WORKER_METER_NAME, WORKER_METRICS } from './worker-metrics.js';
export type { AgentsFactory } from './worker-process/agents-module.js';
