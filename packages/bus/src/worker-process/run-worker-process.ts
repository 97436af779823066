import { hostname } from 'node:os';
import type { Runtime } from '@interlude/core';
import type { BusHealth, Telemetry } from '@interlude/core/internal';
import { withoutCredentials } from '../nats-connection-options.js';
import { natsRoles } from '../nats-roles.js';
import { createWorker, type Worker } from '../worker.js';
import { defineAgents, importAgentsFactory } from './agents-module.js';
import { startDeploymentRuntime } from './deployment-settings.js';
import { type Environment, SettingsError } from './environment-values.js';
import { type HealthServer, startHealthServer } from './health-server.js';
import { type MetricExport, startMetricExport } from './metric-export.js';
import { exitForStartFailure } from './start-failure.js';
import { startTraceExport } from './trace-export.js';
import { usage } from './usage.js';
import { readWorkerSettings, type WorkerSettings } from './worker-settings.js';

/**
 * How long closing may take after the drain: the NATS connection's own drain (its last acks),
 * the final metrics export and the health server. The process exits 0 at this bound whatever is
 * still open, so it is gone within `INTERLUDE_DRAIN_TIMEOUT_MS` plus this after a signal.
 */
export const CLOSE_BOUND_MS = 3_000;

/** How often `/readyz` asks the bus's streams whether they answer (`bus.health()`), at most. */
export const READINESS_PROBE_MS = 2_000;

/** The bus's latest status, as its `onStatus` reported it (ok until it says otherwise). */
interface BusStatus {
  current: BusHealth;
}

const say = (line: string) => console.log(`interlude-worker: ${line}`);
const complain = (line: string) => console.error(`interlude-worker: ${line}`);

/**
 * The `interlude-worker` program: reads its settings, loads the module of agents, consumes the
 * queue, serves health, exports metrics and traces, and drains on SIGTERM or SIGINT (a second signal hands
 * the running jobs back at once). Exits 2 for a bad configuration, 1 when it cannot start.
 */
export async function runWorkerProcess(args: readonly string[], environment: Environment): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage());
    return;
  }
  if (args.includes('--nats-roles')) {
    // The roles file of this deployment's names, for the nats-server's configuration.
    try {
      process.stdout.write(natsRoles(environment['INTERLUDE_PREFIX'] || undefined));
    } catch (error) {
      complain(`INTERLUDE_PREFIX: ${(error as Error).message}`);
      process.exitCode = 2;
    }
    return;
  }
  const opened: { close(): Promise<unknown> }[] = [];
  const busStatus: BusStatus = { current: { ok: true } };
  try {
    const settings = readWorkerSettings(args, environment);
    const metricExport =
      settings.metricExport === undefined ? undefined : await startMetricExport(settings.metricExport);
    if (metricExport !== undefined) opened.push({ close: () => metricExport.shutdown() });
    // Started before the user's module loads, so its instrumented libraries find the provider.
    const traceExport =
      settings.traceExport === undefined
        ? undefined
        : await startTraceExport(settings.traceExport, metricExport?.meterProvider);
    if (traceExport !== undefined) opened.push({ close: () => traceExport.shutdown() });
    const factory = await importAgentsFactory(settings.modulePath);
    // Traced, the GenAI metrics go out with the spans' telemetry; else with the metrics' own.
    const runtime = startRuntime(settings, busStatus, traceExport?.telemetry ?? metricExport?.untracedTelemetry());
    opened.push(runtime);
    if (metricExport !== undefined) opened.push(metricExport.observeQuestionsWaiting(runtime));
    const agents = await defineAgents(factory, runtime, settings.modulePath);
    await serve(settings, runtime, agents, metricExport, opened, busStatus);
  } catch (error) {
    await closeWithin(CLOSE_BOUND_MS, opened);
    exitForStartFailure('interlude-worker', error);
  }
}

/** The runtime on NATS, its status reported as it changes. */
function startRuntime(settings: WorkerSettings, busStatus: BusStatus, telemetry: Telemetry | undefined): Runtime {
  return startDeploymentRuntime(settings, {
    name: `interlude-worker ${hostname()} ${process.pid}`,
    ...(telemetry !== undefined && { telemetry }),
    onStatus: (status) => {
      busStatus.current = status;
      if (status.ok) say('NATS available again');
      else complain(`NATS unavailable: ${status.reason ?? 'unknown'}`);
    },
  });
}

async function serve(
  settings: WorkerSettings,
  runtime: Runtime,
  agents: Parameters<typeof createWorker>[0]['agents'],
  metricExport: MetricExport | undefined,
  opened: { close(): Promise<unknown> }[],
  busStatus: BusStatus,
): Promise<void> {
  let draining = false;
  let probing = false;
  let probedAt = 0;
  let started = false;
  let worker: Worker | undefined;
  const health: HealthServer = await startHealthServer({
    ...settings.health,
    readiness: () => {
      if (draining) return 'draining: taking no new jobs';
      if (worker === undefined || !started) return 'starting: connecting to NATS and setting up the streams';
      if (!worker.isConsuming()) return 'not consuming its queue: NATS is unreachable or JetStream is not answering';
      // A probe asks the streams at most every READINESS_PROBE_MS; what it finds reaches busStatus
      // through onStatus, so a stream without a leader shows here by the next probe even while
      // no job touches it, and so does its recovery.
      if (!probing && Date.now() - probedAt >= READINESS_PROBE_MS) {
        probing = true;
        probedAt = Date.now();
        void runtime.bus.health?.().finally(() => {
          probing = false;
        });
      }
      if (!busStatus.current.ok) return `NATS unavailable: ${busStatus.current.reason ?? 'unknown'}`;
      return undefined;
    },
  }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' || error.code === 'EACCES'
      ? new SettingsError([
          `INTERLUDE_HEALTH_PORT: cannot listen on ${settings.health.host}:${settings.health.port} (${error.code})`,
        ])
      : error;
  });
  opened.push(health);
  say(`health on ${health.url}/healthz and ${health.url}/readyz`);
  const consuming = createWorker({
    runtime,
    ...(agents !== undefined && { agents }),
    queue: settings.queue,
    concurrency: settings.concurrency,
    ...(metricExport !== undefined && { meterProvider: metricExport.meterProvider }),
  });
  worker = consuming;

  const shutdown = async (signal: string) => {
    if (draining) {
      say(`${signal} again: handing the running jobs back now`);
      await consuming.stop({ timeoutMs: 0 });
      return;
    }
    draining = true;
    say(`${signal}: draining: no new jobs; running ones have ${settings.drainTimeoutMs} ms to finish`);
    const began = Date.now();
    await consuming.stop({ timeoutMs: settings.drainTimeoutMs });
    const took = Date.now() - began;
    say(
      took >= settings.drainTimeoutMs
        ? `drain bound reached after ${took} ms: jobs still running were handed back to the queue`
        : `drained in ${took} ms: every running job finished`,
    );
    const closed = await closeWithin(CLOSE_BOUND_MS, opened);
    if (!closed) complain(`closing took longer than ${CLOSE_BOUND_MS} ms: exiting anyway`);
    say('exiting');
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    shutdown(signal).catch((error: unknown) => {
      complain(`draining failed: ${(error as Error)?.stack ?? String(error)}`);
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

  try {
    await consuming.ready;
  } catch (error) {
    if (draining) return;
    throw error;
  }
  started = true;
  if (!draining) {
    const names = (agents ?? []).map((agent) => agent.name).join(', ');
    const servers = settings.nats.servers.map(withoutCredentials).join(',');
    say(`ready: queue ${settings.queue}, concurrency ${settings.concurrency}, agents ${names}, NATS ${servers}`);
  }
}

/** Closes everything opened, latest first; resolves false if that took longer than `boundMs`. */
async function closeWithin(boundMs: number, opened: { close(): Promise<unknown> }[]): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closing = (async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close().catch(() => undefined);
    return true;
  })();
  const bound = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), boundMs);
  });
  const closed = await Promise.race([closing, bound]);
  clearTimeout(timer);
  return closed;
}
