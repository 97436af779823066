export { type BusConformanceOptions, describeBusConformance } from './bus-conformance.js';
export { eventually } from './conformance-events.js';
export { sampleCheckpoint, sampleEvent, sampleJob, uniqueId } from './fixtures.js';
