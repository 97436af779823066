/**
 * The NATS explorer's second runtime: another process of the same deployment (same key, same
 * server, so the same audience) that resumes checkpoints it is handed, as a second app server
 * would. `node --import tsx test/explorer/explorer-resumer-process.ts`, settings in env: NATS_URL,
 * LEDGER_FILE. It reads one JSON line per resume on stdin (`{ n, params, checkpoint, answers }`),
 * resumes it, and prints `resumed <n> <status or ResumeError code>`; each approved body appends
 * `ran <generation> <call>` to the ledger file. It prints `ready` once connected.
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { natsBus } from '@interlude/bus';
import { createRuntime, ResumeError } from '@interlude/core';
import { requiredSetting } from '../support/worker-process.js';
import { defineExplorerAgent, type ExplorerParams } from './explorer-agent.js';

const ledgerFile = requiredSetting('LEDGER_FILE');
const runtime = createRuntime({
  bus: natsBus({ servers: requiredSetting('NATS_URL'), name: `explorer-resumer-${process.pid}` }),
});
const agent = defineExplorerAgent(runtime, {
  bodyRan(generationId, toolCallId) {
    appendFileSync(ledgerFile, `ran ${generationId} ${toolCallId}\n`);
  },
});
await runtime.bus.checkpoints.load('gen_warmup');
console.log('ready');

for await (const line of createInterface({ input: process.stdin })) {
  const { n, params, checkpoint, answers } = JSON.parse(line) as {
    n: number;
    params: ExplorerParams;
    checkpoint: never;
    answers: Record<string, boolean>;
  };
  void agent
    .handle(params)
    .resumeNow({ checkpoint, answers })
    .then(
      (response) => response.status,
      (error: unknown) => (ResumeError.isInstance(error) ? error.code : `error:${(error as Error)?.name}`),
    )
    .then((outcome) => console.log(`resumed ${n} ${outcome}`));
}
await runtime.close();
