/**
 * A process that asks and leaves: `node --import tsx test/support/expiring-question-process.ts`,
 * settings in env: NATS_URL, SIDE_EFFECTS_FILE, AGENT_NAME, APPROVE_AFTER_MS, EXPIRE_UNANSWERED. It
 * starts the refund generation, whose question expires APPROVE_AFTER_MS after it is asked (approved
 * then, or unanswered when EXPIRE_UNANSWERED is 1), prints
 * `paused <generation_id> <input_expires_at>`, closes its bus and exits 0: whatever meets the
 * deadline, it is not this process.
 */
import { natsBus } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { defineRefundAgent } from './bus-refund-agent.js';
import { requiredSetting } from './worker-process.js';

const runtime = createRuntime({ bus: natsBus({ servers: requiredSetting('NATS_URL'), name: `asker-${process.pid}` }) });
const agent = defineRefundAgent(runtime, {
  sideEffectsFile: requiredSetting('SIDE_EFFECTS_FILE'),
  name: requiredSetting('AGENT_NAME'),
  approveAfterMs: Number(requiredSetting('APPROVE_AFTER_MS')),
  expireUnanswered: process.env['EXPIRE_UNANSWERED'] === '1',
});
const paused = await agent.generation('handle', { ticketId: 42 }).generateNow();
console.log(`paused ${paused.generationId} ${paused.checkpoint?.input_expires_at ?? 'never'}`);
await runtime.close();
