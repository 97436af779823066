/**
 * The desk's terminal client, for the same bus as the page:
 *   pending                          open questions across generations
 *   answer <generation> <call> <value>   answer one (`-` reads the value from stdin)
 *   decline <generation> <call>      decline one, as the page's Decline button does
 *   replay <generation>              the generation's timeline from the event log
 *   tail                             follows input_requested events
 * With the memory bus it goes through the demo server's HTTP API (the bus lives in that process);
 * with NATS_URL, `replay` and `tail` read NATS directly, trusting only events signed with
 * INTERLUDE_CHECKPOINT_KEY (the demo's key).
 */
import type { Bus } from '@interlude/core';
import { type AnswerOutcome, DemoClient } from './cli/demo-client.js';
import { exitCodes } from './cli/exit-codes.js';
import { formatEvent, formatQuestion } from './cli/format-event.js';

const USAGE = `usage: cli pending | answer <generation> <call> <value|-> | decline <generation> <call> | replay <generation> | tail`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const codes = exitCodes();
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  // Ctrl-C is how `tail` stops; any other command it simply interrupts, without a stack trace.
  if (command !== 'tail') process.once('SIGINT', () => process.exit(codes.interrupted));
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
    console.log(describeOutcome('Answered', generationId, await client.answer(generationId, toolCallId, value)));
    return 0;
  }
  if (command === 'decline' && rest.length === 2) {
    const [generationId, toolCallId] = rest as [string, string];
    console.log(describeOutcome('Declined', generationId, await client.answer(generationId, toolCallId, false)));
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
    const stopped = new AbortController();
    process.on('SIGINT', () => stopped.abort());
    if (natsUrl === undefined) {
      await client
        .follow('event=input_requested', { onOpen: announce, onEvent: print }, stopped.signal)
        .catch((error: unknown) => {
          if (!stopped.signal.aborted) throw error;
        });
      return 0;
    }
    const bus = await signedNatsBus(natsUrl);
    await bus.subscribe({ event: 'input_requested' }, print);
    announce();
    await new Promise((resolve) => stopped.signal.addEventListener('abort', resolve));
    await bus.close();
    return 0;
  }
  // Never echo the arguments: a mistyped `answer` may hold a secret.
  const known = ['pending', 'answer', 'decline', 'replay', 'tail'].includes(command);
  console.error(`${known ? `${command}: wrong number of arguments` : 'Unknown command'}\n${USAGE}`);
  return codes.usage;
}

function describeOutcome(done: string, generationId: string, outcome: AnswerOutcome): string {
  if (outcome.resumed === 'queued') return `${done}; the worker resumes ${generationId} (job ${outcome.job_id}).`;
  return `${done}; ${generationId} resumed in the server: ${outcome.status}.`;
}

/**
 * The bus on NATS, keyed as the demo's runtime is (INTERLUDE_CHECKPOINT_KEY; without it this
 * refuses to start): events not signed with the key are dropped, never shown. Core and the bus
 * are loaded only here: the commands that go through the server's HTTP API start without them,
 * in a fraction of the time.
 */
async function signedNatsBus(servers: string): Promise<Bus> {
  const [{ natsBus }, { createRuntime }] = await Promise.all([import('@interlude/bus'), import('@interlude/core')]);
  return createRuntime({ bus: natsBus({ servers, name: 'interlude-demo-cli' }) }).bus;
}

async function withNats<Result>(servers: string, body: (bus: Bus) => Promise<Result>) {
  const bus = await signedNatsBus(servers);
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
