import { deploymentUsageRows } from './deployment-settings.js';
import { WORKER_DEFAULTS, WORKER_VARIABLES } from './worker-settings.js';

/** What `interlude-worker --help` prints: the contract of the module and every variable read. */
export function usage(): string {
  const rows: [string, string][] = [
    ...deploymentUsageRows(),
    [WORKER_VARIABLES.queue, 'the queue to consume (default agents)'],
    [WORKER_VARIABLES.concurrency, `jobs run at once, 1 to 1000 (default ${WORKER_DEFAULTS.concurrency})`],
    [WORKER_VARIABLES.healthPort, `port of /healthz and /readyz, 0 for any (default ${WORKER_DEFAULTS.healthPort})`],
    [WORKER_VARIABLES.healthHost, `address it listens on (default ${WORKER_DEFAULTS.healthHost})`],
    [
      WORKER_VARIABLES.drainTimeout,
      `on SIGTERM/SIGINT, how long running jobs may finish before they are handed back (default ${WORKER_DEFAULTS.drainTimeoutMs})`,
    ],
    [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'export traces (OTLP/protobuf) and metrics (OTLP/JSON) there (or the _TRACES_ / _METRICS_ ones)',
    ],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'of traces: http/protobuf (default) or http/json'],
    ['OTEL_TRACES_SAMPLER', 'always_on, parentbased_traceidratio, … (default parentbased_always_on)'],
    ['OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER', 'none turns that export off'],
    ['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'true: record messages and tool content on spans'],
    ['INTERLUDE_OPENINFERENCE', '1: add OpenInference attributes (Arize Phoenix)'],
    ['OTEL_METRIC_EXPORT_INTERVAL', `milliseconds between exports (default ${WORKER_DEFAULTS.metricExportIntervalMs})`],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    'Usage: interlude-worker <module>',
    '',
    'Runs the generateLater / resumeLater jobs of one queue. <module> exports default a function',
    '(runtime) => agents that defines its agents with the runtime it is given. For a TypeScript',
    "module, run it with a loader: NODE_OPTIONS='--import tsx' interlude-worker ./agents.ts",
    '',
    'Settings (environment):',
    ...rows.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
    '',
    'interlude-worker --nats-roles prints the nats-server roles file (application, worker, observer)',
    'for the names of INTERLUDE_PREFIX (the shipped nats/interlude-roles.conf without one).',
    '',
    'Exit codes: 0 after a drain, 1 when it could not start or run, 2 for a bad configuration.',
  ].join('\n');
}
