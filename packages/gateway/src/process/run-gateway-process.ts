import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { serve } from '@hono/node-server';
import {
  defineAgents,
  type Environment,
  exitForStartFailure,
  importAgentsFactory,
  SettingsError,
  startDeploymentRuntime,
} from '@interlude/bus/process';
import { createGateway } from '../create-gateway.js';
import { readGatewaySettings } from './gateway-settings.js';
import { usage } from './usage.js';

const say = (line: string) => console.log(`interlude-gateway: ${line}`);
const complain = (line: string) => console.error(`interlude-gateway: ${line}`);

/**
 * The `interlude-gateway` program: reads its settings, loads the module of agents on a runtime on
 * NATS, serves the gateway, and closes on SIGTERM or SIGINT. Exits 2 for a bad configuration, 1
 * when it cannot start.
 */
export async function runGatewayProcess(args: readonly string[], environment: Environment): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage());
    return;
  }
  const opened: { close(): Promise<unknown> }[] = [];
  try {
    const settings = readGatewaySettings(args, environment);
    const factory = await importAgentsFactory(settings.modulePath);
    const runtime = startDeploymentRuntime(settings, {
      name: `interlude-gateway ${hostname()} ${process.pid}`,
      onStatus: (status) => (status.ok ? say('NATS available again') : complain(`NATS unavailable: ${status.reason}`)),
    });
    opened.push(runtime);
    const agents = await defineAgents(factory, runtime, settings.modulePath);
    const gateway = createGateway({
      runtime,
      keys: settings.keys,
      corsOrigins: settings.corsOrigins,
      bodyLimitBytes: settings.bodyLimitBytes,
      rateLimit: { requests: settings.requestsPerMinute, windowMs: 60_000 },
      queue: settings.queue,
      log: complain,
    });
    opened.push(gateway);
    await gateway.ready;
    const server = serve({ fetch: gateway.fetch, port: settings.port, hostname: settings.host });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE' || error.code === 'EACCES'
            ? new SettingsError([
                `INTERLUDE_GATEWAY_PORT: cannot listen on ${settings.host}:${settings.port} (${error.code})`,
              ])
            : error,
        ),
      );
    });
    opened.push({
      close: () =>
        new Promise((resolve) => {
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          server.close(resolve);
        }),
    });
    const { port } = server.address() as AddressInfo;
    say(
      `listening on http://${settings.host}:${port} (agents ${agents.map((agent) => agent.name).join(', ')}; keys ${settings.keys.map((key) => key.name).join(', ')})`,
    );
    const stop = (signal: string) => {
      say(`${signal}: closing`);
      void closeAll(opened).then(() => process.exit(0));
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  } catch (error) {
    await closeAll(opened);
    exitForStartFailure('interlude-gateway', error);
  }
}

/** Closes everything opened, latest first, each failure ignored (the process is going away). */
async function closeAll(opened: { close(): Promise<unknown> }[]): Promise<void> {
  for (const resource of opened.splice(0).reverse()) await resource.close().catch(() => undefined);
}
