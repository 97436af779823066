export { type BusConformanceOptions, describeBusConformance } from './bus-conformance.js';
export { eventually } from './conformance-events.js';
export { type CuttableProxy, startCuttableProxy } from './cuttable-proxy.js';
export { sampleCheckpoint, sampleClaim, sampleEvent, sampleJob, uniqueId } from './fixtures.js';
