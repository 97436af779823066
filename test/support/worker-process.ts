import type { Worker } from '@interlude/bus';
import type { Job, JobOutcome } from '@interlude/core';

/**
 * A setting a worker script cannot run without, read from its environment: the test that starts
 * it passes everything there, so a missing one is the test's mistake and should fail loudly.
 */
export function requiredSetting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

/** Prints `job <status> <generation_id>`, the line every test that watches a worker waits for. */
export function printJobOutcome(job: Job, outcome: JobOutcome): void {
  process.stdout.write(`job ${outcome.status} ${job.generation_id}\n`);
}

/**
 * Drains the worker on SIGTERM, as a deployment would: no new jobs, running ones finish, then
 * `close` releases what the script opened (runtime, ledger…) and the process exits 0.
 * Resolves once the worker consumes its queue; the script prints `ready` after that.
 */
export function drainOnSigterm(worker: Worker, close: () => Promise<unknown>): Promise<void> {
  process.once('SIGTERM', () => {
    void worker
      .stop()
      .then(close)
      .then(() => process.exit(0));
  });
  return worker.ready;
}
