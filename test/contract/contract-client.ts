// A client of Interlude written from the wire contract alone: it imports nothing of Interlude's,
// only a NATS client, node:crypto and the AsyncAPI document (parsed JSON), from which it takes
// every subject, stream and signing label, as a service in another language would.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { headers as createHeaders, type NatsConnection } from '@nats-io/transport-node';

/** The slice of the AsyncAPI document the client reads. */
export interface ContractDocument {
  channels: Record<
    string,
    {
      address: string;
      parameters?: Record<string, { default?: string }>;
      'x-interlude-stream': string;
    }
  >;
  'x-interlude-signing': { labels: Record<string, string> };
}

/** A question as `input_requested` carries it. */
interface Question {
  kind: string;
  prompt: string;
  tool_call_id: string;
}

interface Event {
  id: string;
  event: string;
  agent: string;
  action: string;
  generation_id: string;
  data: { input_requests?: Question[] };
}

/** What the client answers a question with, or undefined to leave it. */
export type Answerer = (question: Question, event: Event) => unknown;

/**
 * Listens for questions and answers each through a signed resume job, as the document says:
 * read the paused record from the checkpoint bucket, publish a job on the jobs channel. Events
 * whose signature does not verify under `key` are ignored.
 */
export async function answerQuestions(
  connection: NatsConnection,
  contract: ContractDocument,
  key: string,
  answer: Answerer,
  options: { queue?: string } = {},
): Promise<{ stop(): void; answered: string[] }> {
  const labels = contract['x-interlude-signing'].labels;
  const keyBytes = Buffer.from(key, 'utf8');
  const keyId = createHash('sha256').update(keyBytes).digest('hex').slice(0, 8);
  const hmac = (purpose: string, data: string | Uint8Array) =>
    createHmac('sha256', keyBytes)
      .update(labels[purpose] as string)
      .update(data)
      .digest();
  const questions = contract.channels['event_input_requested'];
  const checkpoints = contract.channels['checkpoints'];
  const jobs = contract.channels['jobs'];
  if (questions === undefined || checkpoints === undefined || jobs === undefined) {
    throw new Error('the contract names no input_requested, checkpoints or jobs channel');
  }
  const manager = await jetstreamManager(connection);
  const client = jetstream(connection);
  const answered: string[] = [];
  // A core-NATS subscriber may hear a retried publish twice: each event is answered once.
  const seen = new Set<string>();

  const subscription = connection.subscribe(address(questions, { agent: '*', action: '*', generation_id: '*' }), {
    callback: (_error, message) => {
      const signature = message.headers?.get('Interlude-Signature') ?? '';
      const expected = `${keyId}.${hmac('event', message.data).toString('base64url')}`;
      if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected)))
        return;
      const event = JSON.parse(new TextDecoder().decode(message.data)) as Event;
      if (seen.has(event.id)) return;
      seen.add(event.id);
      const answers: Record<string, unknown> = {};
      for (const question of event.data.input_requests ?? []) {
        const value = answer(question, event);
        if (value !== undefined) answers[question.tool_call_id] = value;
      }
      if (Object.keys(answers).length > 0) void resume(event, answers);
    },
  });

  async function resume(event: Event, answers: Record<string, unknown>) {
    const stored = await manager.streams.getMessage(checkpoints?.['x-interlude-stream'] as string, {
      last_by_subj: address(checkpoints as never, { generation_id: event.generation_id }),
    });
    if (stored === null) return;
    const record = stored.json<{ checkpoint: unknown; params?: unknown }>();
    const job: Record<string, unknown> = {
      version: 1,
      id: `client-${randomUUID()}`,
      kind: 'resume',
      agent: event.agent,
      action: event.action,
      generation_id: event.generation_id,
      ...(record.params !== undefined && { params: record.params }),
      checkpoint: record.checkpoint,
      answers,
      key_id: keyId,
    };
    job['signature'] = hmac('job', canonicalJson(job)).toString('base64url');
    const headers = createHeaders();
    headers.set('Nats-Msg-Id', job['id'] as string);
    await client.publish(address(jobs as never, { queue: options.queue ?? 'agents' }), JSON.stringify(job), {
      headers,
    });
    answered.push(event.generation_id);
  }

  return { stop: () => subscription.unsubscribe(), answered };
}

/** A channel's address with its parameters filled in, each left out taking its default. */
function address(channel: ContractDocument['channels'][string], values: Record<string, string>): string {
  return channel.address.replace(/\{([a-z_]+)\}/g, (_whole, name: string) => {
    const value = values[name] ?? channel.parameters?.[name]?.default;
    if (value === undefined) throw new Error(`no value for {${name}} in ${channel.address}`);
    return value;
  });
}

/** RFC 8785 canonical JSON of a plain JSON value: keys sorted, no whitespace. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, entry]) => entry !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${canonicalJson(entry)}`).join(',')}}`;
}
