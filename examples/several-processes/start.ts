import { randomUUID } from 'node:crypto';
import type { GenerationEvent } from '@interlude/core';
import { connect, defineSupport, QUEUE } from './support-agent.js';

// Short-lived: queues a generation for the worker, waits until it pauses, prints its questions.
const runtime = connect();
const support = defineSupport(runtime);
const generationId = randomUUID();
let paused: (event: GenerationEvent) => void = () => {};
const pause = new Promise<GenerationEvent>((resolve) => {
  paused = resolve;
});
// Subscribe before queueing, so the pause cannot come before the subscription.
await runtime.bus.subscribe({ event: 'input_requested', generationId }, (event) => paused(event));
await support.handle({ ticketId: 42 }).generateLater({ queue: QUEUE, generationId });
console.log(`start: queued ${generationId}`);
const event = await pause;
if (event.event === 'input_requested') {
  for (const request of event.data.input_requests) console.log(`start: ${request.kind}: ${request.prompt}`);
}
await runtime.close(); // else the NATS connection keeps this process alive
