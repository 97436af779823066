import { deploymentUsageRows } from '@interlude/bus/process';
import { GATEWAY_DEFAULTS } from '../create-gateway.js';
import { GATEWAY_PROCESS_DEFAULTS, GATEWAY_VARIABLES } from './gateway-settings.js';

/** What `interlude-gateway --help` prints: the module contract and every variable read. */
export function usage(): string {
  const rows: [string, string][] = [
    ...deploymentUsageRows(),
    [
      GATEWAY_VARIABLES.keys,
      'required: API keys, name:scopes:secret separated by commas; scopes read+answer+cancel or *',
    ],
    [GATEWAY_VARIABLES.port, `port it listens on, 0 for any (default ${GATEWAY_PROCESS_DEFAULTS.port})`],
    [GATEWAY_VARIABLES.host, `address it listens on (default ${GATEWAY_PROCESS_DEFAULTS.host})`],
    [GATEWAY_VARIABLES.corsOrigins, 'origins allowed from a browser, separated by commas (default none)'],
    [GATEWAY_VARIABLES.bodyLimit, `largest request body in bytes (default ${GATEWAY_DEFAULTS.bodyLimitBytes})`],
    [
      GATEWAY_VARIABLES.rateLimit,
      `requests per credential per minute (default ${GATEWAY_DEFAULTS.rateLimit.requests})`,
    ],
    [GATEWAY_VARIABLES.queue, 'the queue answers are resumed on by a worker (default agents)'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    'Usage: interlude-gateway <module>',
    '',
    'Serves the HTTP API to answer paused generations (GET /v1/openapi.json describes it). <module> is',
    "interlude-worker's: it exports default a function (runtime) => agents. Answers become jobs for a",
    'worker on INTERLUDE_QUEUE; a secret answer is resumed in this process.',
    '',
    'Settings (environment):',
    ...rows.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
    '',
    'Exit codes: 0 after SIGTERM/SIGINT, 1 when it could not start, 2 for a bad configuration.',
  ].join('\n');
}
