import { natsNames } from '@interlude/bus';
import {
  checkpointRecordSchema,
  claimRecordSchema,
  deadLetterSchema,
  deploymentRecordSchema,
  eventSchemas,
  inputTimerSchema,
  jobSchema,
  pendingRecordSchema,
} from '@interlude/core/contract';
import { EVENT_NAMES, SIGNATURE_LABELS } from '@interlude/core/internal';
import { z } from 'zod';
import { SIGNATURE_HEADER } from '../../packages/bus/src/event-signature.js';

/** Where the document is committed, and shipped: `@interlude/bus/asyncapi.json`. */
export const ASYNCAPI_PATH = new URL('../../packages/bus/asyncapi.json', import.meta.url);

/**
 * The contract's own version. Its major part changes with any change a reader written against
 * the previous document would misread (a field removed, renamed or retyped, a subject moved, a
 * signature computed otherwise), and every record whose format changed gets a new `version`.
 * Each major version's message schemas are frozen under test/contract/versions/<major>/, and
 * contract-versions.test.ts holds the current schemas to them (docs/wire-contract.md#versions).
 */
export const CONTRACT_VERSION = '1.0.0';

const plain = natsNames();
const prefixed = natsNames('acme');

/** The AsyncAPI 3.0 document of everything Interlude writes to NATS and reads back, from the code's own schemas and names. */
export function asyncApiDocument(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};

  const message = (name: string, schema: z.ZodType, description: string, headers?: Record<string, unknown>) => {
    schemas[name] = hoist(schema, schemas);
    messages[name] = {
      name,
      title: name,
      summary: description,
      contentType: 'application/json',
      payload: { $ref: `#/components/schemas/${name}` },
      ...(headers !== undefined && { headers: { type: 'object', properties: headers } }),
    };
    return { $ref: `#/components/messages/${name}` };
  };
  const channel = (
    id: string,
    spec: {
      address: string;
      parameters: Record<string, string | { description: string; default: string; examples: string[] }>;
      description: string;
      messages: Record<string, unknown>;
      stream: string;
      sends: string;
      receives?: string;
    },
  ) => {
    channels[id] = {
      address: spec.address,
      description: spec.description,
      parameters: Object.fromEntries(
        Object.entries(spec.parameters).map(([name, parameter]) => [
          name,
          typeof parameter === 'string' ? { description: parameter } : parameter,
        ]),
      ),
      messages: spec.messages,
      'x-interlude-stream': spec.stream,
    };
    operations[`send_${id}`] = { action: 'send', channel: { $ref: `#/channels/${id}` }, summary: spec.sends };
    if (spec.receives !== undefined) {
      operations[`receive_${id}`] = {
        action: 'receive',
        channel: { $ref: `#/channels/${id}` },
        summary: spec.receives,
      };
    }
  };
  const namespace = (root: string, prefixedRoot: string) => ({
    description: `\`${root}\`, or \`${prefixedRoot}\` on a bus with \`prefix: 'acme'\``,
    default: root,
    examples: [root, prefixedRoot],
  });
  const messageId = (what: string) => ({
    'Nats-Msg-Id': { type: 'string', description: `JetStream deduplication id: ${what}.` },
  });

  for (const name of EVENT_NAMES) {
    channel(`event_${name}`, {
      address: `{events}.{agent}.{action}.{generation_id}.${name}`,
      parameters: {
        events: namespace(plain.eventsSubjectRoot, prefixed.eventsSubjectRoot),
        agent: 'The agent name.',
        action: 'The action name.',
        generation_id: 'The generation id (`gen_…`).',
      },
      description: `The \`${name}\` transition of a generation, published on core NATS and kept in the event log.`,
      messages: {
        [name]: message(`Event_${name}`, eventSchemas[name], `The \`${name}\` event.`, {
          ...messageId(
            'the event `id`; on a bus with keys, the id, `:`, and the first 16 characters of the base64url HMAC-SHA256(key, "interlude/message-id/v1\\n" + id)',
          ),
          [SIGNATURE_HEADER]: {
            type: 'string',
            pattern: '^[0-9a-f]{8}\\.[A-Za-z0-9_-]{43}$',
            description:
              '`<key_id>.<signature>`: base64url HMAC-SHA256(key, "interlude/event/v1\\n" + the payload bytes exactly as published). Present on a bus with keys.',
          },
        }),
      },
      stream: plain.eventsStream,
      sends: `A runtime or worker publishes each \`${name}\` once per event id.`,
      receives: 'Subscribers (`bus.subscribe`, any NATS client) listen; `bus.events()` replays the stream.',
    });
  }
  channel('jobs', {
    address: '{jobs}.{queue}',
    parameters: {
      jobs: namespace(plain.jobsSubjectRoot, prefixed.jobsSubjectRoot),
      queue: 'The queue (default `agents`).',
    },
    description: `Background generations and resumes: the work-queue stream, consumed by the durable consumer \`${plain.jobConsumerName('QUEUE').replace('QUEUE', '<queue>')}\` every worker of the queue shares.`,
    messages: {
      job: message('Job', jobSchema, 'A generate or resume job.', {
        ...messageId('the job `id`'),
        traceparent: { type: 'string', description: 'W3C trace context of whoever enqueued it.' },
      }),
    },
    stream: plain.jobsStream,
    sends: '`generateLater`, `resumeLater`, `runtime.answerLater()`, or any client holding the key, enqueue a job.',
    receives: 'Workers run each job once it verifies; one that does not is dead-lettered.',
  });
  channel('dead_letters', {
    address: '{dead}.{queue}',
    parameters: {
      dead: namespace(plain.deadSubjectRoot, prefixed.deadSubjectRoot),
      queue: 'The queue the job came from.',
    },
    description: 'Jobs refused for good (forged, unreadable, delivered too often), with why.',
    messages: {
      dead_letter: message('DeadLetter', deadLetterSchema, 'A refused job.', messageId('`dead:<queue>:<delivery>`')),
    },
    stream: plain.deadStream,
    sends: 'A worker refusing a job.',
    receives: 'Operators (`bus.jobs.deadLetters(queue)`).',
  });
  channel('claims', {
    address: '{claims}.{generation_id}.{slot}',
    parameters: {
      claims: namespace(plain.claimsSubjectRoot, prefixed.claimsSubjectRoot),
      generation_id: 'The generation id.',
      slot: 'The slot number, from 0.',
    },
    description:
      'Write-once slots (the stream keeps one message per subject and refuses any later one): who resumes a checkpoint, who runs a job, and each step of its run.',
    messages: {
      claim: message(
        'ClaimRecord',
        claimRecordSchema,
        'One slot of a claim log.',
        messageId('`claim:<generation_id>:<slot>:<holder>`'),
      ),
    },
    stream: plain.claimsStream,
    sends: 'Runtimes and workers write a slot once; a second write is refused by the stream.',
    receives: 'Read from the stream leader by subject.',
  });
  channel('timers', {
    address: '{timers}.{agent}.{generation_id}',
    parameters: {
      timers: namespace(plain.timersSubjectRoot, prefixed.timersSubjectRoot),
      agent: 'The agent name.',
      generation_id: 'The generation id.',
    },
    description: `Deadlines of expiring questions, held until due; consumed by \`${plain.timerConsumerName('AGENT').replace('AGENT', '<agent>')}\`.`,
    messages: {
      timer: message(
        'InputTimer',
        inputTimerSchema,
        "A pause's deadline.",
        messageId(
          '`<generation_id>:<claim_slot>:` and the first 16 characters of its `signature` (unsigned, signing off: `<generation_id>:<claim_slot>`)',
        ),
      ),
    },
    stream: plain.timersStream,
    sends: 'A runtime pausing on a question that expires.',
    receives: 'Workers serving the agent meet it once due.',
  });
  channel('checkpoints', {
    address: '$KV.{checkpoint_bucket}.{generation_id}',
    parameters: {
      checkpoint_bucket: namespace(plain.checkpointBucket, prefixed.checkpointBucket),
      generation_id: 'The generation id.',
    },
    description: 'The KV bucket of the latest checkpoint of each paused generation (one value per key).',
    messages: {
      checkpoint_record: message('CheckpointRecord', checkpointRecordSchema, 'A paused checkpoint and its params.'),
    },
    stream: plain.checkpointStream,
    sends: 'A runtime at each pause; purged once the generation completes.',
    receives: '`runtime.answer()`, `answerLater()` and any client resuming by generation id.',
  });
  channel('deployment', {
    address: '$KV.{checkpoint_bucket}.interlude-deployment',
    parameters: { checkpoint_bucket: namespace(plain.checkpointBucket, prefixed.checkpointBucket) },
    description: "The deployment's id, written once by the first process: the default audience of its checkpoints.",
    messages: { deployment: message('DeploymentRecord', deploymentRecordSchema, "The deployment's id.") },
    stream: plain.checkpointStream,
    sends: 'The first process of a deployment (expected last subject sequence 0).',
    receives: 'Every process of the deployment.',
  });
  channel('pending', {
    address: '$KV.{pending_bucket}.{generation_id}',
    parameters: {
      pending_bucket: namespace(plain.pendingBucket, prefixed.pendingBucket),
      generation_id: 'The generation id.',
    },
    description:
      'The KV bucket listing paused generations (`runtime.pending()`); whether one still waits is the claim log’s to say.',
    messages: { pending_record: message('PendingRecord', pendingRecordSchema, 'A generation paused on a question.') },
    stream: plain.pendingStream,
    sends: 'A runtime at each pause; purged when the generation completes or is cancelled.',
    receives: '`runtime.pending()`.',
  });

  return {
    asyncapi: '3.0.0',
    id: 'urn:interlude:wire-contract',
    info: {
      title: 'Interlude on NATS',
      version: CONTRACT_VERSION,
      description: description(),
    },
    defaultContentType: 'application/json',
    servers: {
      nats: { host: 'localhost:4222', protocol: 'nats', description: 'Any nats-server 2.9 or later with JetStream.' },
    },
    channels,
    operations,
    components: { schemas, messages },
    'x-interlude-signing': {
      description: 'HMAC-SHA256(key, label + signed bytes); see info.description.',
      labels: SIGNATURE_LABELS,
      keyId: 'first 8 hex digits of SHA-256 of the key as UTF-8',
      canonicalJson: 'RFC 8785',
    },
  };
}

/**
 * `schema` as JSON Schema (draft 7, which AsyncAPI's schema format extends), its named parts
 * moved to `components/schemas` (into `shared`) and referred to there.
 */
function hoist(schema: z.ZodType, shared: Record<string, unknown>): unknown {
  const converted = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
  const text = JSON.stringify(converted).replaceAll('"#/definitions/', '"#/components/schemas/');
  const {
    definitions,
    $schema: _draft,
    $ref,
    ...rest
  } = JSON.parse(text) as {
    definitions?: Record<string, unknown>;
    $schema?: string;
    $ref?: string;
  };
  let own: unknown = rest;
  for (const [id, definition] of Object.entries(definitions ?? {})) {
    if ($ref === `#/components/schemas/${id}`) own = definition;
    else shared[id] = definition;
  }
  return own;
}

function description(): string {
  const labels = Object.entries(SIGNATURE_LABELS)
    .map(([purpose, label]) => `- ${purpose}: \`${JSON.stringify(label).slice(1, -1)}\``)
    .join('\n');
  return `Every subject, stream, bucket, header and message Interlude reads or writes on NATS. Messages are UTF-8 JSON, snake_case, each record with its own format \`version\`. Names are those of a bus without a \`prefix\`; with \`prefix: 'acme'\` every stream, bucket and consumer name starts \`acme_\` and every subject \`acme.\` (\`natsNames(prefix)\` in \`@interlude/bus\`). Generated from the zod schemas the code uses (\`@interlude/core/contract\`); a test fails when this document and the code differ.

## Signatures

Every process of a deployment holds the same secret (\`INTERLUDE_CHECKPOINT_KEY\`; several, comma separated, sign with the first and verify with any). A key is used as its UTF-8 bytes; its id (\`key_id\`) is the first 8 hex digits of the SHA-256 of those bytes. Every signature is HMAC-SHA256 over a purpose label, then the signed bytes, so a signature made for one purpose never passes for another, written in base64url without padding (43 characters) beside the \`key_id\` of its key:

${labels}

Canonical JSON is RFC 8785 (JCS): keys sorted by UTF-16 code units, no whitespace, numbers and strings as ECMAScript's JSON.stringify writes them, \`undefined\` members left out; a non-finite number is \`null\` and a lone surrogate stays the escape JSON.stringify writes (\`"\\ud800"\`).

- **Events**: header \`${SIGNATURE_HEADER}: <key_id>.<signature>\`, the HMAC of the event label and the payload bytes exactly as published (after sealing, with a codec). Readers drop an event unsigned or signed otherwise, and one whose body names another subject than the one it arrived on.
- **Jobs**: fields \`key_id\` and \`signature\`, the HMAC of the job label and the canonical JSON of the job without \`signature\` (with \`key_id\`), with its fields unsealed. A worker refuses an unsigned (\`unsigned_job\`) or forged (\`forged_job\`) job and a resume job without its \`checkpoint\`.
- **Checkpoints**: fields \`key_id\` and \`signature\`, the HMAC of the checkpoint label and: the canonical JSON of the checkpoint without \`signature\` (with \`key_id\`), a newline, and the canonical JSON of the action's params (\`null\` when it has none). A resume with other params, in another deployment (\`audience\`), or past \`expires_at\`, is refused.
- **Claim records**: fields \`key_id\` and \`signature\`, the HMAC of the claim label and the canonical JSON of the record without \`signature\` (with \`key_id\`, and the \`generation_id\` and \`slot\` it is written in), its fields unsealed; signed with the key of the checkpoint or job its run claimed. Readers skip a record unsigned, signed otherwise, or naming another generation or slot than its subject's: it holds no slot, and the next claim goes after it.
- **Timers**: fields \`key_id\` and \`signature\`, the HMAC of the timer label and the canonical JSON of the timer without \`signature\` (with \`key_id\`). A worker drops a timer unsigned, signed otherwise, or without a whole-number \`claim_slot\`.
- **Answer tokens** (HTTP, not NATS) have their own label.

## Answering a question from another process

Read the paused generation's record from the checkpoint bucket (\`$KV.${plain.checkpointBucket}.<generation_id>\`, a JetStream message get of the last message on that subject), then publish on \`${plain.jobSubject('agents')}\` a job \`{ "version": 1, "id": <new unique id>, "kind": "resume", "agent", "action", "generation_id", "params": <the record's params>, "checkpoint": <the record's checkpoint>, "answers": { "<tool_call_id>": <answer> }, "key_id", "signature" }\`, with the header \`Nats-Msg-Id\` set to its id. A worker of the queue runs it; \`resumed\`, then \`completed\` (or another pause) follow on the event subjects.

## Sealed payloads

On a bus with a codec (\`INTERLUDE_PAYLOAD_KEY\`), the fields each schema marks as sealable (event \`data\`, a job's \`params\`, \`answers\` and \`checkpoint\`, a checkpoint record's \`checkpoint\` and \`params\`, a pending record's \`input_requests\`, a claim's \`checkpoint\` and \`error\`, a dead letter's \`reason.message\` and \`raw\`) are a \`SealedPayload\` instead. Signatures of jobs and checkpoints cover the unsealed content; an event's covers the bytes as published.`;
}
