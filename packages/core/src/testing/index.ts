export { createMemoryCheckpointStore } from '../bus/memory-bus.js';
export { createMemoryClaimLog } from '../bus/memory-claim-log.js';
export { forgetProcessClaimLogs } from '../bus/process-claim-logs.js';
export { createRefundScenario } from './refund-fixture.js';
export {
  type RecordedModelRequest,
  type ScriptedProvider,
  type ScriptedReply,
  type ScriptedResponder,
  scriptedProvider,
} from './scripted-provider.js';
export { secretFormsIn, secretInEveryForm } from './secret-in-every-form.js';
