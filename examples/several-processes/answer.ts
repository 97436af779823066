import { connect, defineSupport } from './support-agent.js';

// Short-lived: answers a paused generation's questions and resumes it here, in this process.
const [generationId, pin] = process.argv.slice(2);
if (generationId === undefined || pin === undefined) {
  console.error('usage: answer.ts <generation id> <PIN>');
  process.exit(2);
}
const runtime = connect();
defineSupport(runtime); // the resume runs here, so this process defines the agent too
const paused = (await runtime.pending({ agent: 'support' })).find((each) => each.generationId === generationId);
if (paused === undefined) {
  console.error(`answer: ${generationId} is not waiting for an answer`);
  await runtime.close();
  process.exit(1);
}
const answers: Record<string, unknown> = {};
for (const request of paused.inputRequests) answers[request.toolCallId] = request.kind === 'secret' ? pin : true;
// A secret answer is resumed with `runtime.answer()`, in the process that holds it: a job would
// store it on the bus, so `runtime.answerLater()` refuses it (`secret_in_job`).
const response = await runtime.answer(generationId, answers);
console.log(`answer: ${response.text}`);
await runtime.close();
