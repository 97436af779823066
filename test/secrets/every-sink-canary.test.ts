import { FILTERED } from '@interlude/core/internal';
import { secretFormsIn } from '@interlude/core/testing';
import { expect, it } from 'vitest';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';
import {
  canarySecrets,
  PAYLOAD_FREE_SINKS,
  runSecretCanaryScenario,
  TIMER_KEYS,
} from '../support/secret-canary-scenario.js';

const { token, key } = canarySecrets();
// A nats-server of its own: the scenario taps every message on the server (`>`), and another
// file's traffic on a shared one would land in its sinks (and, for the codec, read as a leak).
const nats = usePrivateNatsServer('every-sink-canary');

it('a secret the tools return, throw and ask in every form reaches its tools and no sink, in no form', async () => {
  const run = await runSecretCanaryScenario({ token, key }, { natsUrl: nats.server.url });

  // The secret reached its tools, and the option picked reached its tool as the tool offered it…
  expect.soft(run.witness).toEqual({ token, key, pickedAccount: token });
  // …a process that never saw the secret could not answer the scrubbed option…
  expect.soft(run.elsewhere).toBe('refused secret_option');
  expect(Object.keys(run.sinks).sort()).toEqual([
    'checkpoint bucket',
    'conversation rows',
    'dead letters',
    'errors and causes',
    'every NATS message',
    'model requests',
    'pending index',
    'responses',
    'spans',
    'stored claims',
    'stored events',
    'stored jobs',
    'stored timers',
  ]);
  for (const [sink, text] of Object.entries(run.sinks)) {
    // …each sink received what the secret was scrubbed from (so its silence below means something)…
    if (PAYLOAD_FREE_SINKS.includes(sink)) expect.soft(Object.keys(JSON.parse(text)).sort(), sink).toEqual(TIMER_KEYS);
    else expect.soft(text, sink).toContain(FILTERED);
    // …and holds neither secret in any form: as typed, any case, NFC/NFD, JSON-escaped,
    // URL-encoded, hex, base64 at any offset, bytes, or eight characters of it in a row.
    expect.soft(secretFormsIn(text, token), `${sink}: the token`).toEqual([]);
    expect.soft(secretFormsIn(text, key), `${sink}: the key`).toEqual([]);
  }
}, 120_000);
