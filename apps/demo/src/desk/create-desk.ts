import { randomBytes } from 'node:crypto';
import { createWorker, memoryBus, natsBus, type Worker } from '@interlude/bus';
import { createRuntime, hasContext, type Runtime } from '@interlude/core';
import { type AgentBase, CHECKPOINT_KEY_VARIABLE } from '@interlude/core/internal';
import { openTelemetry, secretScrubbingProcessor } from '@interlude/telemetry';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { DemoConfig } from '../config/read-demo-config.js';
import { chooseProvider } from '../model/choose-provider.js';
import { SpanCollector } from '../tracing/span-collector.js';
import { createBillingAgents } from './billing-agents.js';
import { boundedContextStore } from './bounded-context-store.js';
import { createDeployAgent } from './deploy-agent.js';
import { createRefundAgent } from './refund-agent.js';
import { createTriageAgent } from './triage-agent.js';

/** Everything the support desk runs on, wired once at start. */
export interface Desk {
  runtime: Runtime;
  agents: ReadonlyMap<string, AgentBase>;
  worker: Worker;
  /** The queue the desk's worker serves; runs and resumes are jobs on it. */
  queue: string;
  spans: SpanCollector;
  contextStore: ReturnType<typeof boundedContextStore>;
  /** One line per default in use, for the start banner. */
  defaults: string[];
  close(): Promise<void>;
}

/**
 * Wires the desk: the bus (memory, or NATS with `NATS_URL`), OpenTelemetry into an in-memory
 * span collector (the page's trace view), the memory context store, the model, the five agents
 * and an in-process worker that runs every queued run and resume.
 */
export async function createDesk(config: DemoConfig): Promise<Desk> {
  const bus = config.natsUrl === undefined ? memoryBus() : natsBus({ servers: config.natsUrl, name: 'interlude-demo' });
  const spans = new SpanCollector();
  // The scrubbing processor first, as in production: the trace view is an exporter like any other.
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [secretScrubbingProcessor(), spans] });
  // On NATS a runtime needs a key; without INTERLUDE_CHECKPOINT_KEY the demo makes one for this
  // process (and says so), so `pnpm demo` still starts with nothing configured.
  const key =
    config.natsUrl !== undefined && process.env[CHECKPOINT_KEY_VARIABLE] === undefined
      ? randomBytes(32).toString('hex')
      : undefined;
  // captureContent shows tool arguments and results in the trace view; secrets are [FILTERED].
  const runtime = createRuntime({
    bus,
    telemetry: openTelemetry({ tracerProvider, captureContent: true }),
    ...(key !== undefined && { checkpointKey: key }),
  });
  const contextStore = boundedContextStore();
  const context = hasContext<{ ticketId: number }>(contextStore, {
    contextual: ({ ticketId }) => `ticket:${ticketId}`,
  });
  const model = await chooseProvider(config.model);
  const shared = { runtime, provider: model.provider, context };
  const { manager, billing } = createBillingAgents(shared);
  const agents = [
    createRefundAgent({ ...shared, expiryMs: config.refundExpiryMs }),
    createTriageAgent(shared),
    createDeployAgent(shared),
    manager,
    billing,
  ];
  const worker = createWorker({ runtime, agents, queue: config.queue, concurrency: 4 });
  await worker.ready;
  return {
    runtime,
    agents: new Map(agents.map((agent) => [agent.name, agent])),
    worker,
    queue: config.queue,
    spans,
    contextStore,
    defaults: [
      config.natsUrl === undefined
        ? 'bus: memory (in this process; set NATS_URL to use NATS JetStream)'
        : `bus: NATS JetStream at ${config.natsUrl}`,
      `worker: in-process, queue "${config.queue}", 4 jobs at a time`,
      process.env[CHECKPOINT_KEY_VARIABLE] !== undefined
        ? `checkpoint key: from ${CHECKPOINT_KEY_VARIABLE} (checkpoints, jobs and events are signed with it)`
        : `checkpoint key: random, for this process only (set ${CHECKPOINT_KEY_VARIABLE} to share the bus with other processes and resume after a restart)`,
      'context store: memory (one conversation per ticket, its last 40 messages)',
      'telemetry: OpenTelemetry spans kept in memory for the trace view',
      `model: ${model.description}`,
    ],
    async close() {
      await worker.stop();
      await runtime.close();
      await model.close();
      await tracerProvider.shutdown();
    },
  };
}
