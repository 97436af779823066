import type { Worker } from '@interlude/bus';
import type { Job, JobOutcome } from '@interlude/core/internal';

/**
 * A setting a worker script cannot run without, read from its environment: the test that starts
 * it passes everything there, so a missing one is the test's mistake and should fail loudly.
 */
export function requiredSetting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
}

/** `job <status> <generation_id>\n`, the line every test that watches a worker waits for. */
export function jobLine(job: Job, outcome: JobOutcome): string {
  return `job ${outcome.status} ${job.generation_id}\n`;
}

/** Prints the job line at once. */
export function printJobOutcome(job: Job, outcome: JobOutcome): void {
  process.stdout.write(jobLine(job, outcome));
  // Why a job failed, beside its line: a test that times out waiting shows this in its output.
  if ('error' in outcome) {
    const code = (outcome.error as { code?: unknown }).code ?? outcome.error.name;
    process.stdout.write(`why ${outcome.status} ${job.generation_id} ${String(code)}: ${outcome.error.message}\n`);
  }
}

/**
 * Stdout written once per turn of the event loop instead of once per line (a pipe write is a
 * system call on each side): for a process printing lines per job by the thousand. Lines keep
 * their order, and whatever is pending is written before the process exits.
 */
export function batchedStdout(): (text: string) => void {
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    process.stdout.write(text);
  };
  process.on('exit', flush);
  return (text) => {
    if (pending === '') setImmediate(flush);
    pending += text;
  };
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
