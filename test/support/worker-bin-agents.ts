/**
 * The module of agents the `interlude-worker` tests start the bin on, as a user would
 * (`NODE_OPTIONS='--import tsx' interlude-worker test/support/worker-bin-agents.ts`): the
 * reliability suite's `support` agent, its side effects in the PostgreSQL ledger. Settings in env:
 * POSTGRES_URL, LEDGER_SCHEMA, MODEL_DELAY_MS, and HANG_TICKETS, a JSON list of tickets whose
 * generation, the first time it gets past the refund (in any process), prints `hanging <ticket>`
 * and hangs, so the test can stop the worker while that job runs.
 */
import type { AgentsFactory } from '@interlude/bus';
import { defineReliabilityAgent } from './reliability-agent.js';
import { connectLedger } from './reliability-ledger.js';
import { requiredSetting } from './worker-process.js';

const ledger = connectLedger(requiredSetting('POSTGRES_URL'), requiredSetting('LEDGER_SCHEMA'));
const hangs = new Set(JSON.parse(process.env['HANG_TICKETS'] ?? '[]') as number[]);

const agents: AgentsFactory = (runtime) => [
  defineReliabilityAgent(runtime, {
    ledger,
    ...(process.env['MODEL_DELAY_MS'] !== undefined && { modelDelayMs: Number(process.env['MODEL_DELAY_MS']) }),
    async atCrashPoint(point, ticketId) {
      if (point !== 'after_tool' || !hangs.has(ticketId) || !(await ledger.firstTime(`hang ${ticketId}`))) return;
      console.log(`hanging ${ticketId}`);
      await new Promise(() => undefined);
    },
  }),
];
export default agents;
