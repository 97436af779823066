/**
 * Placeholder demo until the support-desk page lands: runs the refund scenario in the terminal
 * with the scripted model, pauses for approval, resumes from the JSON checkpoint and prints every
 * transition the bus carried.
 */
import { createRuntime, defineAgent } from '@interlude/core';
import { createRefundScenario, scriptedProvider } from '@interlude/core/testing';

const runtime = createRuntime();
await runtime.bus.subscribe({}, (event) => {
  console.log(`  event  ${event.event.padEnd(20)} ${event.generation_id}`);
});
const scenario = createRefundScenario();
const support = defineAgent({
  name: 'support',
  runtime,
  provider: scriptedProvider(scenario.replies),
  instructions: 'You resolve support tickets.',
  actions: { handle: scenario.action },
});

console.log('Interlude demo (terminal): a refund that waits for a person\n');
const paused = await support.handle({ ticketId: 42 }).generateNow();
await new Promise((resolve) => setTimeout(resolve, 10));
for (const request of paused.inputRequests) console.log(`\n  paused: ${request.prompt} (call ${request.toolCallId})`);
const checkpoint = JSON.stringify(paused.checkpoint);
console.log(`  checkpoint: ${checkpoint.length} bytes of JSON\n\n  a person answers: yes\n`);
const done = await support.handle({ ticketId: 42 }).resumeNow({ checkpoint: JSON.parse(checkpoint), answers: { call_refund: true } });
await new Promise((resolve) => setTimeout(resolve, 10));
console.log(`\n  final answer: ${done.text}`);
console.log(`  tool runs: lookup_order ${scenario.runs.lookup_order}, issue_refund ${scenario.runs.issue_refund}`);
