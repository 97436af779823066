// `@interlude/core/contract`: the zod schemas of everything Interlude writes where another
// process reads it (events, jobs, checkpoints, the pending index, the claim log, timers, dead
// letters). The wire contract (`@interlude/bus`'s AsyncAPI document) is generated from them.
export { checkpointSchema } from './checkpoint-schema.js';
export { type ContractEventName, eventDataSchemas, eventSchemas, generationEventSchema } from './event-schemas.js';
export { choiceOptionSchema, delegationStepSchema, inputRequestSchema, jsonValueSchema } from './question-schema.js';
export {
  checkpointRecordSchema,
  claimRecordSchema,
  deadLetterSchema,
  deploymentRecordSchema,
  inputTimerSchema,
  jobSchema,
  pendingRecordSchema,
} from './record-schemas.js';
export { sealable, sealedPayloadSchema } from './sealed-payload-schema.js';
