import type { NatsConnection } from '@nats-io/transport-node';
import { watchConnectionStatus } from '../connection-status.js';
import { isTransientNatsError } from '../retry.js';

/** How often a job consumer sweeps acknowledged jobs the stream kept, and how long after a reconnect. */
const SWEEP_EVERY_MS = 15_000;
const SWEEP_AFTER_RECONNECT_MS = 3_000;

/**
 * Runs `sweep` (`sweepAcknowledgedJobs`) for a job consumer: at once, every 15 s, and 3 s after a
 * reconnect (a restarted 2.9 server is when acknowledged jobs are kept), quiet while the server is
 * away. Goes with `sweepAcknowledgedJobs`, and with it once no supported server needs it.
 */
export function startAcknowledgedJobsSweeper(
  connection: NatsConnection,
  sweep: () => Promise<number>,
  report: { active: () => boolean; onError: (error: unknown, context: string) => void },
): { stop(): void } {
  let disconnected = false;
  const run = () => {
    if (!report.active() || disconnected) return;
    sweep().catch((error: unknown) => {
      if (report.active() && !isTransientNatsError(error)) report.onError(error, 'sweeping acknowledged jobs');
    });
  };
  const every = setInterval(run, SWEEP_EVERY_MS);
  every.unref();
  const statuses = watchConnectionStatus(connection, (status) => {
    if (status.type === 'disconnect') disconnected = true;
    else if (status.type === 'reconnect') {
      disconnected = false;
      setTimeout(run, SWEEP_AFTER_RECONNECT_MS).unref();
    }
  });
  run();
  return {
    stop() {
      clearInterval(every);
      statuses.stop();
    },
  };
}
