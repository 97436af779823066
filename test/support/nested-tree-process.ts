/**
 * One process of the nested-pause tests: `node --import tsx test/support/nested-tree-process.ts`,
 * settings in env: NATS_URL, SIDE_EFFECTS_FILE, PREFIX, MODE and, by mode, QUEUE or CHECKPOINT_FILE.
 * - `ask`: starts the triage tree, which pauses at the root on the question payments asks; writes
 *   the checkpoint to CHECKPOINT_FILE when set, prints `paused <generation_id> <question ids>`, exits 0.
 * - `resume`: resumes the checkpoint in CHECKPOINT_FILE with `resumeNow`, answering `true`, prints
 *   `done <status> <text>`, exits 0.
 * - `worker`: serves the triage agent's jobs on QUEUE; prints `ready`, then one `job …` line per job.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createWorker, natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { DEEP_QUESTION, defineNestedTree } from './nested-tree-agents.js';
import { drainOnSigterm, printJobOutcome, requiredSetting } from './worker-process.js';

const runtime = createRuntime({ bus: natsBus({ servers: requiredSetting('NATS_URL'), name: `tree-${process.pid}` }) });
const triage = defineNestedTree(runtime, {
  prefix: requiredSetting('PREFIX'),
  sideEffectsFile: requiredSetting('SIDE_EFFECTS_FILE'),
});

switch (requiredSetting('MODE')) {
  case 'ask': {
    const paused = await triage.generation('handle', {}).generateNow();
    const file = process.env['CHECKPOINT_FILE'];
    if (file !== undefined) await writeFile(file, JSON.stringify(paused.checkpoint));
    console.log(`paused ${paused.generationId} ${paused.inputRequests.map((request) => request.toolCallId).join(',')}`);
    await runtime.close();
    break;
  }
  case 'resume': {
    const checkpoint = JSON.parse(await readFile(requiredSetting('CHECKPOINT_FILE'), 'utf8')) as unknown;
    const done = await triage.generation('handle', {}).resumeNow({ checkpoint, answers: { [DEEP_QUESTION]: true } });
    console.log(`done ${done.status} ${done.text}`);
    await runtime.close();
    break;
  }
  case 'worker': {
    const worker = createWorker({ runtime, agents: [triage], queue: requiredSetting('QUEUE'), onJob: printJobOutcome });
    await drainOnSigterm(worker, () => runtime.close());
    console.log('ready');
    break;
  }
  default:
    throw new Error(`Unknown MODE ${process.env['MODE']}`);
}
