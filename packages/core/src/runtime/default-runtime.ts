import { createRuntime } from './create-runtime.js';
import type { Runtime } from './runtime.js';

let shared: Runtime | undefined;

/** The embedded runtime agents use when none is given: one per process, made on first use. */
export function defaultRuntime(): Runtime {
  shared ??= createRuntime();
  return shared;
}
