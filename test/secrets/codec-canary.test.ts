import { randomBytes } from 'node:crypto';
import { aesGcmCodec } from '@interlude/bus';
import { FILTERED } from '@interlude/core/internal';
import { secretFormsIn } from '@interlude/core/testing';
import { expect, it } from 'vitest';
import { PAYLOAD_KEY_VARIABLE } from '../../packages/bus/src/codec/payload-keys.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import {
  canarySecrets,
  PAYLOAD_FREE_SINKS,
  RAW_NATS_SINKS,
  runSecretCanaryScenario,
  TIMER_KEYS,
} from '../support/secret-canary-scenario.js';

const { token, key } = canarySecrets();
// A nats-server of its own: the scenario taps every message on the server (`>`), and another
// file's traffic on a shared one would land in its sinks (and, for the codec, read as a leak).
const nats = usePrivateNatsServer('codec-canary');
const payloadKey = randomBytes(32).toString('base64');

/**
 * What the scenario's person, tools and model write besides the secret: the opening message,
 * the first question, a tool's error and result, the final text, and the placeholder scrubbing
 * leaves in every result and question after the secret.
 */
const texts = [
  'Enroll device 7, then deploy',
  'Token for device 7?',
  'verification refused',
  '"chosen"',
  'Device 7 is enrolled and deployed.',
  FILTERED,
];

it('with the payload codec, the NATS server holds no result, answer, question or message text in any stream, bucket or message, and nothing else changes', async () => {
  const run = await runSecretCanaryScenario(
    { token, key },
    {
      natsUrl: nats.server.url,
      busOptions: { codec: aesGcmCodec({ keys: [payloadKey] }) },
      // The process that answers from elsewhere reads the sealed checkpoint with the same key.
      childEnvironment: { [PAYLOAD_KEY_VARIABLE]: payloadKey },
    },
  );

  // Everything ran as without the codec: the tools got the secret, the other process read the
  // paused generation and was refused the scrubbed option, the job resumed, the dead letter was kept.
  expect.soft(run.witness).toEqual({ token, key, pickedAccount: token });
  expect.soft(run.elsewhere).toBe('refused secret_option');
  const raw = Object.entries(run.sinks).filter(([sink]) => (RAW_NATS_SINKS as readonly string[]).includes(sink));
  const elsewhere = Object.entries(run.sinks).filter(([sink]) => !(RAW_NATS_SINKS as readonly string[]).includes(sink));
  expect(raw.map(([sink]) => sink).sort()).toEqual([...RAW_NATS_SINKS]);
  for (const text of texts) {
    // Each text is real: the sinks off the NATS server (model requests, spans, rows, responses) hold it…
    expect
      .soft(
        elsewhere.some(([, sinkText]) => secretFormsIn(sinkText, text).length > 0),
        text,
      )
      .toBe(true);
    // …and not one byte the NATS server stored or carried does, in any form.
    for (const [sink, sinkText] of raw) expect.soft(secretFormsIn(sinkText, text), `${sink}: ${text}`).toEqual([]);
  }
  for (const [sink, sinkText] of Object.entries(run.sinks)) {
    expect.soft(secretFormsIn(sinkText, token), `${sink}: the token`).toEqual([]);
    expect.soft(secretFormsIn(sinkText, key), `${sink}: the key`).toEqual([]);
    expect.soft(secretFormsIn(sinkText, payloadKey), `${sink}: the payload key`).toEqual([]);
  }
  // What routes and identifies a record stays readable on the server.
  const events = run.sinks['stored events'] ?? '';
  for (const readable of ['"event":"input_requested"', '"event":"completed"', '"agent":"vault"', '"action":"enroll"']) {
    expect.soft(events).toContain(readable);
  }
  expect.soft(run.sinks['stored claims']).toContain('"kind":"paused"');
  expect.soft(run.sinks['dead letters']).toContain('"code":"already_resumed"');
  for (const [sink, sinkText] of raw) {
    if (PAYLOAD_FREE_SINKS.includes(sink))
      expect.soft(Object.keys(JSON.parse(sinkText)).sort(), sink).toEqual(TIMER_KEYS);
    else expect.soft(sinkText, sink).toContain('"sealed":"aes-256-gcm"');
  }
}, 120_000);
