import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SettingsError } from './environment-values.js';
import { readWorkerSettings } from './worker-settings.js';

const directory = mkdtempSync(join(tmpdir(), 'interlude-worker-settings-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

const base = { NATS_URL: 'nats://127.0.0.1:4222' };
const read = (environment: Record<string, string>, args = ['./agents.js']) => readWorkerSettings(args, environment);

/** The problems a bad configuration is refused with, one per line as the bin prints them. */
function problems(environment: Record<string, string>, args = ['./agents.js']): readonly string[] {
  try {
    read(environment, args);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('the worker bin settings', () => {
  it('need only NATS_URL and a module; everything else has a default', () => {
    expect(read(base)).toEqual({
      modulePath: './agents.js',
      nats: { servers: ['nats://127.0.0.1:4222'] },
      prefix: undefined,
      replicas: undefined,
      updateStreams: false,
      unavailableAfterMs: 10_000,
      queue: 'agents',
      concurrency: 1,
      health: { port: 8080, host: '0.0.0.0' },
      drainTimeoutMs: 20_000,
      metricExport: undefined,
      traceExport: undefined,
      codec: false,
    });
  });

  it('seal payloads with INTERLUDE_PAYLOAD_KEY, and refuse a bad key with the rest, by position, never by value', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const { codec } = read({ ...base, INTERLUDE_PAYLOAD_KEY: key });
    expect(codec !== false && codec.seal(new Uint8Array(0), 'x').sealed).toBe('aes-256-gcm');
    const refused = problems({
      ...base,
      INTERLUDE_PAYLOAD_KEY: `${key},too-short-to-be-a-key`,
      INTERLUDE_CONCURRENCY: '0',
    });
    expect(refused).toHaveLength(2);
    expect(refused.find((line) => line.startsWith('INTERLUDE_PAYLOAD_KEY'))).toMatch(/key 2 of INTERLUDE_PAYLOAD_KEY/);
    expect(refused.join('\n')).not.toContain('too-short-to-be-a-key');
  });

  it('put the deployment under INTERLUDE_PREFIX', () => {
    expect(read({ ...base, INTERLUDE_PREFIX: 'acme' }).prefix).toBe('acme');
  });

  it('take several servers of one cluster, separated by commas, with or without a scheme', () => {
    const settings = read({ NATS_URL: ' nats://a:4222, tls://b:4223 ,c:4224,' });
    expect(settings.nats.servers).toEqual(['nats://a:4222', 'tls://b:4223', 'c:4224']);
  });

  it('list every problem at once, naming each variable, without repeating a credential', () => {
    expect(
      problems(
        {
          NATS_URL: 'http://user:secret-password@host:4222,nats://',
          INTERLUDE_CONCURRENCY: '0',
          INTERLUDE_PREFIX: 'acme.prod',
          INTERLUDE_QUEUE: 'jobs.high',
          INTERLUDE_REPLICAS: '7',
          INTERLUDE_HEALTH_PORT: '80000',
          INTERLUDE_DRAIN_TIMEOUT_MS: '-1',
          INTERLUDE_UPDATE_STREAMS: 'yes',
          INTERLUDE_UNAVAILABLE_AFTER_MS: '0',
        },
        [],
      ),
    ).toEqual([
      'module: give the path of your module of agents: interlude-worker ./agents.js',
      'NATS_URL: "http://host:4222" must start with nats:// or tls://',
      'NATS_URL: "nats://" names no host',
      'INTERLUDE_PREFIX: invalid_prefix: prefix must be 1 to 32 letters, digits, _ or -, starting with a letter or digit, got "acme.prod"',
      'INTERLUDE_REPLICAS: must be a whole number from 1 to 5 (JetStream keeps at most 5 copies), got "7"',
      'INTERLUDE_UPDATE_STREAMS: must be 1 or 0 (true or false), got "yes"',
      'INTERLUDE_UNAVAILABLE_AFTER_MS: must be a whole number from 1 to 3600000, got "0"',
      'INTERLUDE_QUEUE: queue "jobs.high" cannot be used in a NATS subject: no dots, wildcards or spaces',
      'INTERLUDE_CONCURRENCY: must be a whole number from 1 to 1000 (a JetStream consumer has at most 1,000 jobs unacknowledged by default), got "0"',
      'INTERLUDE_HEALTH_PORT: must be a whole number from 0 to 65535 (0: any free port), got "80000"',
      'INTERLUDE_DRAIN_TIMEOUT_MS: must be a whole number from 0 to 3600000, got "-1"',
    ]);
    expect(problems({})).toEqual(['NATS_URL: required: the NATS server URL, or several separated by commas']);
  });

  it('take one way to authenticate: user and password, a token, a creds file or an nkey seed file', () => {
    expect(read({ ...base, INTERLUDE_NATS_USER: 'worker', INTERLUDE_NATS_PASSWORD: 'pw' }).nats).toMatchObject({
      user: 'worker',
      pass: 'pw',
    });
    expect(read({ ...base, INTERLUDE_NATS_TOKEN: 't0ken' }).nats).toMatchObject({ token: 't0ken' });
    const seed = file('worker.nk', `SU${'A'.repeat(56)}\n`);
    expect(typeof read({ ...base, INTERLUDE_NATS_NKEY: seed }).nats.authenticator).toBe('function');
    const creds = file(
      'worker.creds',
      '-----BEGIN NATS USER JWT-----\neyJ0\n------END NATS USER JWT------\n-----BEGIN USER NKEY SEED-----\nSUAB\n------END USER NKEY SEED------\n',
    );
    expect(typeof read({ ...base, INTERLUDE_NATS_CREDS: creds }).nats.authenticator).toBe('function');

    expect(problems({ ...base, INTERLUDE_NATS_USER: 'worker' })).toEqual([
      'INTERLUDE_NATS_PASSWORD: needs its pair: set both or neither',
    ]);
    expect(problems({ ...base, INTERLUDE_NATS_TOKEN: 't', INTERLUDE_NATS_CREDS: creds })).toEqual([
      'INTERLUDE_NATS_TOKEN, INTERLUDE_NATS_CREDS: give one way to authenticate, not several',
    ]);
    expect(problems({ ...base, INTERLUDE_NATS_NKEY: creds })).toEqual([
      `INTERLUDE_NATS_NKEY: ${creds} does not hold a user nkey seed (SU…, 58 characters)`,
    ]);
    expect(problems({ ...base, INTERLUDE_NATS_CREDS: seed })).toEqual([
      `INTERLUDE_NATS_CREDS: ${seed} is not a creds file (a user JWT and an nkey seed)`,
    ]);
    expect(problems({ ...base, INTERLUDE_NATS_CREDS: join(directory, 'missing.creds') })).toEqual([
      `INTERLUDE_NATS_CREDS: cannot read ${join(directory, 'missing.creds')} (ENOENT)`,
    ]);
  });

  it('turn TLS on with any TLS file, and want a client certificate with its key', () => {
    const ca = file('ca.pem', 'ca');
    const cert = file('worker.pem', 'cert');
    const key = file('worker.key', 'key');
    expect(read({ ...base, INTERLUDE_NATS_TLS_CA: ca }).nats.tls).toEqual({ caFile: ca });
    expect(
      read({ ...base, INTERLUDE_NATS_TLS_CA: ca, INTERLUDE_NATS_TLS_CERT: cert, INTERLUDE_NATS_TLS_KEY: key }).nats.tls,
    ).toEqual({ caFile: ca, certFile: cert, keyFile: key });
    expect(problems({ ...base, INTERLUDE_NATS_TLS_CERT: cert })).toEqual([
      'INTERLUDE_NATS_TLS_KEY: a client certificate needs its key: set both or neither',
    ]);
  });

  it('export traces over OTLP/protobuf when an OTLP endpoint is set, through the standard variables', () => {
    const collector = { ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(read(collector).traceExport).toEqual({
      protocol: 'http/protobuf',
      captureContent: false,
      openInference: false,
    });
    expect(
      read({
        ...base,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://phoenix:6006/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        INTERLUDE_OPENINFERENCE: '1',
      }).traceExport,
    ).toEqual({ protocol: 'http/json', captureContent: true, openInference: true });
    expect(read({ ...collector, OTEL_TRACES_EXPORTER: 'none' }).traceExport).toBeUndefined();
    expect(
      problems({ ...collector, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc', OTEL_TRACES_SAMPLER: 'sometimes' }),
    ).toEqual([
      'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: http/protobuf or http/json, got "grpc"',
      'OTEL_TRACES_SAMPLER: one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "sometimes"',
    ]);
  });

  it('export metrics when an OTLP endpoint is set and OTEL_METRICS_EXPORTER is not none', () => {
    expect(read({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).metricExport).toEqual({
      intervalMs: 60_000,
    });
    expect(
      read({
        ...base,
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'https://collector/v1/metrics',
        OTEL_METRIC_EXPORT_INTERVAL: '500',
      }).metricExport,
    ).toEqual({ intervalMs: 500 });
    expect(
      read({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_METRICS_EXPORTER: 'none' })
        .metricExport,
    ).toBeUndefined();
    expect(
      problems({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_METRIC_EXPORT_INTERVAL: 'often' }),
    ).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT: an http:// or https:// URL, got "collector:4318"',
      'OTEL_METRIC_EXPORT_INTERVAL: must be a whole number from 100 to 86400000 milliseconds, got "often"',
    ]);
  });
});
