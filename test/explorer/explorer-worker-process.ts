/**
 * A worker process of the NATS explorer: `node --import tsx test/explorer/explorer-worker-process.ts`,
 * settings in env: NATS_URL, QUEUE, JOB_ACK_WAIT_MS, LEDGER_FILE. It serves the explorer's agent;
 * each approved body prints `body <generation> <call>`, waits BODY_HOLD_MS (so the test can stop
 * or kill it there), then appends `ran <generation> <call>` to the ledger file (one line, one
 * `O_APPEND` write: the ledger of every process). It prints `ready`, and `job <status> <generation>
 * <job id>` per job it ran: the id, because one generation's jobs are many (its start, answers,
 * expiry jobs, a delivery again of any of them), and the test waits on the ones it queued.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWorker, natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { drainOnSigterm, jobLine, requiredSetting } from '../support/worker-process.js';
import { defineExplorerAgent } from './explorer-agent.js';

const ledgerFile = requiredSetting('LEDGER_FILE');
const holdMs = Number(process.env['BODY_HOLD_MS'] ?? 200);
const runtime = createRuntime({
  bus: natsBus({
    servers: requiredSetting('NATS_URL'),
    name: `explorer-worker-${process.pid}`,
    jobAckWaitMs: Number(requiredSetting('JOB_ACK_WAIT_MS')),
  }),
});
const agent = defineExplorerAgent(runtime, {
  async insideBody(generationId, toolCallId) {
    console.log(`body ${generationId} ${toolCallId}`);
    await sleep(holdMs);
  },
  bodyRan(generationId, toolCallId) {
    appendFileSync(ledgerFile, `ran ${generationId} ${toolCallId}\n`);
  },
});
const worker = createWorker({
  runtime,
  agents: [agent],
  queue: requiredSetting('QUEUE'),
  onJob(job, outcome) {
    process.stdout.write(`${jobLine(job, outcome).trimEnd()} ${job.id}\n`);
    if ('error' in outcome)
      process.stdout.write(`why ${outcome.status} ${job.generation_id}: ${outcome.error.message}\n`);
  },
});
await drainOnSigterm(worker, () => runtime.close());
console.log('ready');
