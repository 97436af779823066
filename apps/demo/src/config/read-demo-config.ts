/** What the environment chose; every field has an embedded default so one command starts the demo. */
export interface DemoConfig {
  port: number;
  host: string;
  /** `NATS_URL`: the bus goes over NATS JetStream instead of staying in this process. */
  natsUrl: string | undefined;
  /** `DEMO_QUEUE`: the work queue runs and resumes go through (default `agents`). */
  queue: string;
  /** `DEMO_ALLOWED_HOSTS`: more `host:port` names the page may be served under (comma-separated). */
  allowedHosts: string[];
  /** `DEMO_REFUND_EXPIRY_MS`: how long the course refund's question waits before it is declined (default 60 s). */
  refundExpiryMs: number;
  /** Which model answers: the local scripted one unless an API key is set. */
  model:
    | { kind: 'scripted' }
    | { kind: 'anthropic'; model: string; apiKey: string }
    | { kind: 'openai'; model: string; apiKey: string };
}

/** Reads `PORT`, `HOST`, `NATS_URL`, `DEMO_QUEUE`, `DEMO_ALLOWED_HOSTS`, `DEMO_REFUND_EXPIRY_MS`, `ANTHROPIC_API_KEY` / `OPENAI_API_KEY` (and `*_MODEL`) from `environment`. */
export function readDemoConfig(environment: NodeJS.ProcessEnv = process.env): DemoConfig {
  const port = Number(environment['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`PORT must be a port number`);
  const refundExpiryMs = Number(environment['DEMO_REFUND_EXPIRY_MS'] ?? 60_000);
  if (!Number.isFinite(refundExpiryMs) || refundExpiryMs <= 0) {
    throw new TypeError('DEMO_REFUND_EXPIRY_MS must be a positive number of milliseconds');
  }
  return {
    port,
    host: environment['HOST'] ?? '127.0.0.1',
    natsUrl: nonEmpty(environment['NATS_URL']),
    queue: nonEmpty(environment['DEMO_QUEUE']) ?? 'agents',
    allowedHosts: (environment['DEMO_ALLOWED_HOSTS'] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0),
    refundExpiryMs,
    model: chooseModel(environment),
  };
}

function chooseModel(environment: NodeJS.ProcessEnv): DemoConfig['model'] {
  const anthropicKey = nonEmpty(environment['ANTHROPIC_API_KEY']);
  if (anthropicKey !== undefined) {
    return { kind: 'anthropic', apiKey: anthropicKey, model: environment['ANTHROPIC_MODEL'] ?? 'claude-sonnet-4-5' };
  }
  const openaiKey = nonEmpty(environment['OPENAI_API_KEY']);
  if (openaiKey !== undefined) {
    return { kind: 'openai', apiKey: openaiKey, model: environment['OPENAI_MODEL'] ?? 'gpt-4.1-mini' };
  }
  return { kind: 'scripted' };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
