import { uniqueId } from '@interlude/bus/testing';
import type { Runtime } from '@interlude/core';
import type { Ledger } from './reliability-ledger.js';
import { type OperatorLog, startOperator } from './reliability-operator.js';
import { superviseWorkers } from './reliability-supervisor.js';

/** A fresh generation id for a reliability test: a valid subject token. */
export function reliabilityGenerationId(): string {
  return `gen_${uniqueId('g').replaceAll(/[^a-zA-Z0-9]/g, '')}`;
}

/**
 * What the job tests share: `count` worker processes (`reliability-worker-process.ts`) on a
 * fresh queue, ready, with the operator answering every question of `generations` generations
 * the test then queues with `enqueueAll()`. By default the operator decides about an unknown
 * outcome once a worker printed `job fenced <generation>` (the run that stopped mid-call can no
 * longer finish it); `mayDecide` says otherwise (a killed worker, say). `stop()` ends both.
 */
export async function startFleet(options: {
  runtime: Runtime;
  ledger: Ledger;
  natsUrl: string | string[];
  postgresUrl: string;
  count: number;
  maxRestarts?: number;
  ackWaitMs: number;
  generations: number;
  env?: Record<string, string>;
  mayDecide?: (generationId: string) => boolean;
  holdFirstAnswer?: (generationId: string) => Promise<void>;
}) {
  const queue = uniqueId('reliability');
  const supervisor = superviseWorkers({
    script: 'reliability-worker-process.ts',
    count: options.count,
    maxRestarts: options.maxRestarts ?? 0,
    env: {
      NATS_URL: [options.natsUrl].flat().join(','),
      QUEUE: queue,
      POSTGRES_URL: options.postgresUrl,
      LEDGER_SCHEMA: options.ledger.schema,
      JOB_ACK_WAIT_MS: String(options.ackWaitMs),
      ...options.env,
    },
  });
  const generationIds = Array.from({ length: options.generations }, reliabilityGenerationId);
  let operator: (OperatorLog & { stop(): Promise<void> }) | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await operator?.stop();
      await supervisor.stop();
    })();
    return stopped;
  };
  try {
    await supervisor.ready();
    operator = await startOperator({
      runtime: options.runtime,
      ledger: options.ledger,
      queue,
      ours: new Set(generationIds),
      mayDecide: options.mayDecide ?? ((generationId) => supervisor.lines().includes(`job fenced ${generationId}`)),
      ...(options.holdFirstAnswer && { holdFirstAnswer: options.holdFirstAnswer }),
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    queue,
    supervisor,
    operator,
    generationIds,
    /** Queues every generation (ticket = its position) for the workers. */
    async enqueueAll() {
      const support = options.runtime.agents.get('support');
      for (const [ticketId, generationId] of generationIds.entries()) {
        await support?.generation('handle', { ticketId }).generateLater({ queue, generationId });
      }
    },
    stop,
  };
}
