import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DemoProcess, runCli, startDemo } from './support/demo-process.js';

const natsUrl = inject('natsUrl');
let demo: DemoProcess | undefined;

beforeAll(async () => {
  // A queue of its own, so no other suite's worker on this NATS server takes the desk's jobs.
  demo = await startDemo({ NATS_URL: natsUrl, DEMO_QUEUE: `demo-${randomUUID().slice(0, 8)}` });
});

afterAll(async () => {
  await demo?.stop();
});

describe('the demo with NATS_URL', () => {
  it('runs on NATS JetStream, and the terminal client replays the event log from NATS after the server is gone', async () => {
    const started = demo as DemoProcess;
    expect(started.output()).toContain(`bus: NATS JetStream at ${natsUrl}`);
    const response = await fetch(`${started.url}/api/tickets/102/run`, { method: 'POST' });
    const { generationId } = (await response.json()) as { generationId: string };
    await expect.poll(() => runCli(started.url, ['pending']), { timeout: 15_000 }).toContain(generationId);
    expect(await runCli(started.url, ['answer', generationId, 'toolu_refund_01', 'no'])).toContain(
      'the worker resumes',
    );
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${started.url}/api/generations/${generationId}`)).json()) as { status: string }).status,
        {
          timeout: 15_000,
        },
      )
      .toBe('completed');

    await started.stop();
    demo = undefined;
    const replay = await runCli('http://127.0.0.1:9', ['replay', generationId], { NATS_URL: natsUrl });
    expect(replay).toContain('[toolu_refund_01] confirm: Refund $45 on order 2077?');
    expect(replay).toContain('declined toolu_refund_01');
    expect(replay.trim().split('\n').at(-1)).toContain('completed');
  }, 90_000);
});
