import {
  type DeploymentSettings,
  type Environment,
  readDeploymentSettings,
  SettingsError,
  SettingsReader,
} from '@interlude/bus/process';
import { DEFAULT_QUEUE } from '@interlude/core/internal';
import { GATEWAY_DEFAULTS } from '../create-gateway.js';
import { type GatewayKey, parseGatewayKeys } from '../gateway-keys.js';

/** The gateway's own variables beside the deployment's, in the order `--help` lists them. */
export const GATEWAY_VARIABLES = {
  keys: 'INTERLUDE_GATEWAY_KEYS',
  port: 'INTERLUDE_GATEWAY_PORT',
  host: 'INTERLUDE_GATEWAY_HOST',
  corsOrigins: 'INTERLUDE_GATEWAY_CORS_ORIGINS',
  bodyLimit: 'INTERLUDE_GATEWAY_BODY_LIMIT',
  rateLimit: 'INTERLUDE_GATEWAY_RATE_LIMIT',
  queue: 'INTERLUDE_QUEUE',
} as const;

export const GATEWAY_PROCESS_DEFAULTS = { port: 8090, host: '0.0.0.0' } as const;

export interface GatewaySettings extends DeploymentSettings {
  keys: GatewayKey[];
  port: number;
  host: string;
  corsOrigins: string[];
  bodyLimitBytes: number;
  /** Requests per credential per minute. */
  requestsPerMinute: number;
  queue: string;
}

/** Reads the settings, or throws a `SettingsError` listing every problem (a key by its name, never its secret). */
export function readGatewaySettings(args: readonly string[], environment: Environment): GatewaySettings {
  const reader = new SettingsReader(environment);
  const deployment = readDeploymentSettings('interlude-gateway', args, reader, environment);
  let keys: GatewayKey[] = [];
  const keyText = reader.text(GATEWAY_VARIABLES.keys);
  if (keyText === undefined) {
    reader.problem(GATEWAY_VARIABLES.keys, 'required: name:scopes:secret entries separated by commas');
  } else {
    try {
      keys = parseGatewayKeys(keyText);
    } catch (error) {
      reader.problem(GATEWAY_VARIABLES.keys, (error as Error).message);
    }
  }
  const corsOrigins = (reader.text(GATEWAY_VARIABLES.corsOrigins) ?? '')
    .split(/[\s,]+/)
    .filter((origin) => origin !== '');
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      reader.problem(GATEWAY_VARIABLES.corsOrigins, `${JSON.stringify(origin)} is not an origin (https://host[:port])`);
    }
  }
  const settings: GatewaySettings = {
    ...deployment,
    keys,
    port: reader.integer(GATEWAY_VARIABLES.port, GATEWAY_PROCESS_DEFAULTS.port, 0, 65_535, ' (0: any free port)'),
    host: reader.text(GATEWAY_VARIABLES.host) ?? GATEWAY_PROCESS_DEFAULTS.host,
    corsOrigins,
    bodyLimitBytes: reader.integer(GATEWAY_VARIABLES.bodyLimit, GATEWAY_DEFAULTS.bodyLimitBytes, 64, 16 * 1024 * 1024),
    requestsPerMinute: reader.integer(GATEWAY_VARIABLES.rateLimit, GATEWAY_DEFAULTS.rateLimit.requests, 1, 1_000_000),
    queue: reader.text(GATEWAY_VARIABLES.queue) ?? DEFAULT_QUEUE,
  };
  if (reader.problems.length > 0) throw new SettingsError(reader.problems);
  return settings;
}
