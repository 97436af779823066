import { NATS_VARIABLES } from './nats-environment.js';
import { WORKER_DEFAULTS, WORKER_VARIABLES } from './worker-settings.js';

/** What `interlude-worker --help` prints: the contract of the module and every variable read. */
export function usage(): string {
  const rows: [string, string][] = [
    [NATS_VARIABLES.servers, 'required: nats://host:4222, or several of one cluster separated by commas'],
    [`${NATS_VARIABLES.user} / ${NATS_VARIABLES.password}`, 'user and password'],
    [NATS_VARIABLES.token, 'a token'],
    [NATS_VARIABLES.creds, 'path of a creds file (user JWT and nkey seed)'],
    [NATS_VARIABLES.nkey, 'path of a file holding a user nkey seed (SU…)'],
    [NATS_VARIABLES.tlsCa, "path of the CA certificate that signed the server's"],
    [`${NATS_VARIABLES.tlsCert} / ${NATS_VARIABLES.tlsKey}`, 'paths of a client certificate and its key (mutual TLS)'],
    ['INTERLUDE_CHECKPOINT_KEY', 'required: the key every process of the deployment signs with'],
    ['INTERLUDE_AUDIENCE', "the deployment's name in signatures (default: the bus's deployment id)"],
    [
      'INTERLUDE_PAYLOAD_KEY',
      'seals payloads at rest: 32-byte keys in base64 or hex, separated by commas (first seals)',
    ],
    [WORKER_VARIABLES.prefix, "the deployment's prefix on NATS (natsBus({ prefix })); default none"],
    [WORKER_VARIABLES.queue, 'the queue to consume (default agents)'],
    [WORKER_VARIABLES.concurrency, `jobs run at once, 1 to 1000 (default ${WORKER_DEFAULTS.concurrency})`],
    [
      WORKER_VARIABLES.replicas,
      "copies JetStream keeps of the streams and bucket, 1 to 5 (default: the streams' own, or 3 on a cluster of 3+)",
    ],
    [WORKER_VARIABLES.updateStreams, '1: update streams set up with other replicas or limits instead of refusing them'],
    [
      WORKER_VARIABLES.unavailableAfter,
      `how long a job's bus call waits for NATS before it fails (default ${WORKER_DEFAULTS.unavailableAfterMs})`,
    ],
    [WORKER_VARIABLES.healthPort, `port of /healthz and /readyz, 0 for any (default ${WORKER_DEFAULTS.healthPort})`],
    [WORKER_VARIABLES.healthHost, `address it listens on (default ${WORKER_DEFAULTS.healthHost})`],
    [
      WORKER_VARIABLES.drainTimeout,
      `on SIGTERM/SIGINT, how long running jobs may finish before they are handed back (default ${WORKER_DEFAULTS.drainTimeoutMs})`,
    ],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'export metrics over OTLP/HTTP (or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)'],
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
    'Exit codes: 0 after a drain, 1 when it could not start or run, 2 for a bad configuration.',
  ].join('\n');
}
