export { type OpenTelemetryOptions, type OpenTelemetryTelemetry, openTelemetry } from './open-telemetry.js';
export * as openinference from './openinference-names.js';
export { observeQuestionsWaiting, type QuestionsWaiting } from './questions-waiting.js';
export { secretScrubbingProcessor } from './secret-scrubbing-processor.js';
export * as semconv from './semconv.js';
