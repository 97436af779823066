import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsBus, natsNames } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect, it } from 'vitest';
import { watchChild } from '../support/bus-child-process.js';
import { startGatewayBin } from '../support/gateway-bin-process.js';
import { defineDesk } from '../support/gateway-desk-agents.js';
import { GATEWAY_TEST_KEY_TEXT, GATEWAY_TEST_KEYS, lastEventIs, pausedCalls } from '../support/gateway-harness.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import { startWorkerBin } from '../support/worker-bin-process.js';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCRIPT = join(repository, 'examples', 'python', 'answer_questions.py');
// Its own server: the script answers every question it sees, so it must see only this test's.
const nats = usePrivateNatsServer('gateway-python');

it('a Python 3 script on the standard library follows input_requested through interlude-gateway, answers a confirm with an answer token and a text with a key, and both complete (worker and gateway bins under INTERLUDE_PREFIX)', async () => {
  const queue = 'python-desk';
  // The deployment under a prefix, as an operator sharing a NATS sets it: the bins from the
  // environment, the app in code.
  const prefix = 'pydesk';
  const worker = startWorkerBin('support/gateway-desk-agents.ts', {
    NATS_URL: nats.server.url,
    INTERLUDE_QUEUE: queue,
    INTERLUDE_PREFIX: prefix,
  });
  const gateway = startGatewayBin('support/gateway-desk-agents.ts', {
    NATS_URL: nats.server.url,
    INTERLUDE_QUEUE: queue,
    INTERLUDE_PREFIX: prefix,
    INTERLUDE_GATEWAY_KEYS: GATEWAY_TEST_KEY_TEXT,
  });
  nats.children.push(worker, gateway);
  const runtime = createRuntime({ bus: natsBus({ servers: nats.server.url, prefix, onError: () => undefined }) });
  nats.runtimes.push(runtime);
  const desk = defineDesk(runtime);
  await worker.waitForLine(/^interlude-worker: ready: /);

  const python = spawn('python3', [SCRIPT], {
    env: {
      PATH: process.env['PATH'],
      GATEWAY_URL: await gateway.url(),
      GATEWAY_API_KEY: GATEWAY_TEST_KEYS.answerer,
      EXPECT_COMPLETED: '2',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const client = watchChild(python, 'answer_questions.py');
  nats.children.push(client);
  await client.waitForLine(/^following$/);

  // The app starts two generations, and hands the confirm's answer token to the script.
  const approval = await desk.generation('approve', {}).generateLater({ queue });
  const note = await desk.generation('explain', {}).generateLater({ queue });
  const [callId] = (await pausedCalls(runtime, approval.generationId)) as [string];
  const token = await runtime.answerToken(approval.generationId, callId);
  python.stdin.write(`${JSON.stringify({ generation_id: approval.generationId, tool_call_id: callId, token })}\n`);

  expect(await client.exited, client.errors()).toBe(0);
  expect(client.lines).toEqual(
    expect.arrayContaining([
      `answered ${approval.generationId} ${callId} by token: 202 queued`,
      expect.stringMatching(new RegExp(`^answered ${note.generationId} \\S+ by key: 202 queued$`)),
      `completed ${approval.generationId}`,
      `completed ${note.generationId}`,
    ]),
  );
  await lastEventIs(runtime, approval.generationId, 'completed');
  const events = await runtime.bus.events(note.generationId);
  expect(JSON.stringify(events.find((event) => event.event === 'tool_completed'))).toContain(
    'The customer was charged twice',
  );
  // Every process kept to the prefix: the server holds its streams and buckets, and no others.
  const connection = await connect({ servers: nats.server.url });
  try {
    const streams: string[] = [];
    for await (const name of (await jetstreamManager(connection)).streams.names()) streams.push(name);
    expect(streams.sort()).toEqual([...natsNames(prefix).allStreams].sort());
  } finally {
    await connection.close();
  }
  // The page that shows the script shows this one, line for line.
  const page = readFileSync(join(repository, 'docs', 'answering-from-anywhere.md'), 'utf8');
  expect(page).toContain(readFileSync(SCRIPT, 'utf8').trim());
});
