/**
 * The desk's terminal client, for the same bus as the page:
 *   pending                          open questions across generations
 *   answer <generation> <call> <value>   answer one (`-` reads the value from stdin; `false` declines)
 *   replay <generation>              the generation's timeline from the event log
 *   tail                             follows input_requested events
 * With the memory bus it goes through the demo server's HTTP API (the bus lives in that process);
 * with NATS_URL, `replay` and `tail` read NATS directly, trusting only events signed with
 * INTERLUDE_CHECKPOINT_KEY (the demo's key).
 */
import { natsBus } from '@interlude/bus';
import { type Bus, createRuntime } from '@interlude/core';
import { DemoClient } from './cli/demo-client.js';
import { formatEvent, formatQuestion } from './cli/format-event.js';

const USAGE = `usage: cli pending | answer <generation> <call> <value|-> | replay <generation> | tail`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const client = new DemoClient();
  const natsUrl = process.env['NATS_URL']?.trim() || undefined;
  if (command === 'pending') {
    const questions = await client.pending();
    if (questions.length === 0) console.log('No question is waiting.');
    for (const question of questions) console.log(formatQuestion(question));
    return 0;
  }
  if (command === 'answer' && rest.length === 3) {
    const [generationId, toolCallId, raw] = rest as [string, string, string];
    const value = raw === '-' ? await readStdin() : raw;
    const outcome = await client.answer(generationId, toolCallId, value);
    if (outcome.resumed === 'worker')
      console.log(`Answered; the worker resumes ${generationId} (job ${outcome.jobId}).`);
    else if (outcome.resumed === 'in-process')
      console.log(`Answered; ${generationId} resumed in the server: ${outcome.status}.`);
    else console.log(`Answered; still waiting for ${outcome.waitingFor.join(', ')}.`);
    return 0;
  }
  if (command === 'replay' && rest.length === 1) {
    const generationId = rest[0] as string;
    const events =
      natsUrl === undefined
        ? await client.events(generationId)
        : await withNats(natsUrl, (bus) => bus.events(generationId));
    if (events.length === 0) console.log(`No events for ${generationId}.`);
    for (const event of events) console.log(formatEvent(event));
    return 0;
  }
  if (command === 'tail') {
    const announce = () =>
      console.log(
        `Following input_requested events${natsUrl ? ` on ${natsUrl}` : ` from ${client.baseUrl}`} (Ctrl-C stops)`,
      );
    const print = (event: Parameters<typeof formatEvent>[0]) =>
      console.log(`${event.generation_id}  ${formatEvent(event)}`);
    if (natsUrl === undefined) {
      await client.follow('event=input_requested', { onOpen: announce, onEvent: print });
      return 0;
    }
    const bus = signedNatsBus(natsUrl);
    await bus.subscribe({ event: 'input_requested' }, print);
    announce();
    await new Promise<void>((resolve) => process.once('SIGINT', resolve));
    await bus.close();
    return 0;
  }
  console.error(USAGE);
  return 2;
}

/**
 * The bus on NATS, keyed as the demo's runtime is (INTERLUDE_CHECKPOINT_KEY; without it this
 * refuses to start): events not signed with the key are dropped, never shown.
 */
function signedNatsBus(servers: string): Bus {
  return createRuntime({ bus: natsBus({ servers, name: 'interlude-demo-cli' }) }).bus;
}

async function withNats<Result>(servers: string, body: (bus: Bus) => Promise<Result>) {
  const bus = signedNatsBus(servers);
  try {
    return await body(bus);
  } finally {
    await bus.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
