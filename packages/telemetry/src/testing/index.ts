export { createInMemoryTracing, type InMemoryTracing } from './in-memory-tracing.js';
export { type SpanNode, spanTree } from './span-tree.js';
