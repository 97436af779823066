import { createRuntime, type InterludeError, type Runtime } from '@interlude/core';
import type { BusHealth, Telemetry } from '@interlude/core/internal';
import { DEFAULT_UNAVAILABLE_AFTER_MS } from '../bus-availability.js';
import { aesGcmCodecOf } from '../codec/aes-gcm-codec.js';
import type { PayloadCodec } from '../codec/payload-codec.js';
import { environmentPayloadKeys, PAYLOAD_KEY_VARIABLE } from '../codec/payload-keys.js';
import { natsBus } from '../nats-bus.js';
import { natsNames } from '../subjects.js';
import { type Environment, SettingsError, type SettingsReader } from './environment-values.js';
import { NATS_VARIABLES, type NatsSettings, readNatsSettings } from './nats-environment.js';

/**
 * The settings every Interlude process of a deployment reads alike (`interlude-worker`,
 * `interlude-gateway`): the module of agents, how to reach NATS, the streams' settings and the
 * payload codec. Each bin reads its own variables beside these.
 */
export interface DeploymentSettings {
  /** The user's module of agents, as given (resolved against the working directory). */
  modulePath: string;
  nats: NatsSettings;
  /** The deployment's prefix on NATS (`natsBus({ prefix })`), when set. */
  prefix: string | undefined;
  /** Copies JetStream keeps of the streams and bucket, when set. */
  replicas: number | undefined;
  /** Streams set up otherwise are updated to these settings instead of refused. */
  updateStreams: boolean;
  /** How long a bus operation waits for NATS before it fails. */
  unavailableAfterMs: number;
  /** The payload codec from `INTERLUDE_PAYLOAD_KEY`; false when it is unset (payloads stored plain). */
  codec: PayloadCodec | false;
}

/** The deployment's own variables beside the NATS ones, in the order `--help` lists them. */
export const DEPLOYMENT_VARIABLES = {
  prefix: 'INTERLUDE_PREFIX',
  replicas: 'INTERLUDE_REPLICAS',
  updateStreams: 'INTERLUDE_UPDATE_STREAMS',
  unavailableAfter: 'INTERLUDE_UNAVAILABLE_AFTER_MS',
} as const;

/**
 * Reads the module path (the one argument) and the deployment's variables into `reader`, which
 * collects the problems: the caller throws them with its own (`SettingsError`).
 */
export function readDeploymentSettings(
  bin: string,
  args: readonly string[],
  reader: SettingsReader,
  environment: Environment,
): DeploymentSettings {
  const modulePath = args[0];
  if (modulePath === undefined || modulePath.trim() === '' || modulePath.startsWith('-')) {
    reader.problem('module', `give the path of your module of agents: ${bin} ./agents.js`);
  } else if (args.length > 1) {
    reader.problem('arguments', `one module path only, got ${args.length} arguments`);
  }
  const nats = readNatsSettings(reader);
  const prefix = reader.text(DEPLOYMENT_VARIABLES.prefix);
  try {
    natsNames(prefix);
  } catch (error) {
    // The code too, so a script reading the bin's stderr matches it as a natsBus caller would.
    reader.problem(DEPLOYMENT_VARIABLES.prefix, `${(error as InterludeError).code}: ${(error as Error).message}`);
  }
  return {
    modulePath: modulePath ?? '',
    nats,
    prefix,
    replicas:
      reader.text(DEPLOYMENT_VARIABLES.replicas) === undefined
        ? undefined
        : reader.integer(DEPLOYMENT_VARIABLES.replicas, 1, 1, 5, ' (JetStream keeps at most 5 copies)'),
    updateStreams: readFlag(reader, DEPLOYMENT_VARIABLES.updateStreams),
    unavailableAfterMs: reader.integer(
      DEPLOYMENT_VARIABLES.unavailableAfter,
      DEFAULT_UNAVAILABLE_AFTER_MS,
      1,
      3_600_000,
    ),
    codec: readPayloadCodec(reader, environment),
  };
}

/**
 * The runtime of a deployment's process on NATS, named `name` on the server; a checkpoint key
 * missing or too short is a configuration problem (`SettingsError`).
 */
export function startDeploymentRuntime(
  settings: DeploymentSettings,
  options: { name: string; onStatus?: (status: BusHealth) => void; telemetry?: Telemetry },
): Runtime {
  const bus = natsBus({
    ...settings.nats,
    name: options.name,
    codec: settings.codec,
    ...(settings.prefix !== undefined && { prefix: settings.prefix }),
    ...(settings.replicas !== undefined && { replicas: settings.replicas }),
    updateStreams: settings.updateStreams,
    unavailableAfterMs: settings.unavailableAfterMs,
    ...(options.onStatus !== undefined && { onStatus: options.onStatus }),
  });
  try {
    return createRuntime({ bus, ...(options.telemetry !== undefined && { telemetry: options.telemetry }) });
  } catch (error) {
    void bus.close();
    throw new SettingsError([(error as Error).message]);
  }
}

/** The `--help` rows of the deployment's variables, the NATS ones first. */
export function deploymentUsageRows(): [string, string][] {
  return [
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
    [DEPLOYMENT_VARIABLES.prefix, "the deployment's prefix on NATS (natsBus({ prefix })); default none"],
    [
      DEPLOYMENT_VARIABLES.replicas,
      "copies JetStream keeps of the streams and bucket, 1 to 5 (default: the streams' own, or 3 on a cluster of 3+)",
    ],
    [
      DEPLOYMENT_VARIABLES.updateStreams,
      '1: update streams set up with other replicas or limits instead of refusing them',
    ],
    [
      DEPLOYMENT_VARIABLES.unavailableAfter,
      `how long a bus call waits for NATS before it fails (default ${DEFAULT_UNAVAILABLE_AFTER_MS})`,
    ],
  ];
}

/** A yes/no variable: `1`/`true` or `0`/`false`, unset for no. */
function readFlag(reader: SettingsReader, name: string): boolean {
  const value = reader.text(name)?.toLowerCase();
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  reader.problem(name, `must be 1 or 0 (true or false), got ${JSON.stringify(value)}`);
  return false;
}

/**
 * `INTERLUDE_PAYLOAD_KEY`, checked here with the rest so a bad key is reported before anything
 * connects (the message names the key by position, never by value).
 */
function readPayloadCodec(reader: SettingsReader, environment: Environment): PayloadCodec | false {
  try {
    const keys = environmentPayloadKeys({ [PAYLOAD_KEY_VARIABLE]: environment[PAYLOAD_KEY_VARIABLE] });
    return keys === undefined ? false : aesGcmCodecOf(keys);
  } catch (error) {
    reader.problem(PAYLOAD_KEY_VARIABLE, (error as Error).message);
    return false;
  }
}
