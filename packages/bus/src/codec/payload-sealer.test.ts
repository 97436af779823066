import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sampleCheckpoint, sampleEvent, sampleJob } from '../testing/fixtures.js';
import { aesGcmCodec } from './aes-gcm-codec.js';
import { isSealedPayload } from './payload-codec.js';
import { PayloadCodecError } from './payload-codec-error.js';
import { PAYLOAD_KEY_VARIABLE } from './payload-keys.js';
import { createPayloadSealer } from './payload-sealer.js';
import { openDeadLetter, openEvent, openJob, sealDeadLetter, sealEvent, sealJob } from './sealed-records.js';

const key = randomBytes(32).toString('base64');
const sealer = createPayloadSealer(aesGcmCodec({ keys: [key] }));
const plain = createPayloadSealer(undefined, {});

describe('the bus sealer', () => {
  it('seals event data only: event type, ids, names, run, index and time stay as they were', () => {
    const event = sampleEvent('gen_sealer', 3, 'completed');
    const stored = sealEvent(sealer, event);
    const { data, ...readable } = stored;
    const { data: _data, ...expected } = event;
    expect(readable).toEqual(expected);
    expect(isSealedPayload(data)).toBe(true);
    expect(JSON.stringify(stored)).not.toContain('done');
    expect(openEvent(sealer, JSON.parse(JSON.stringify(stored)))).toEqual(event);
    // The generation is authenticated with the data (associated data): moved to another's event, it does not open.
    expect(() => openEvent(sealer, { ...stored, generation_id: 'gen_other' })).toThrow(
      expect.objectContaining({ code: 'undecryptable_payload' }),
    );
  });

  it("seals a job's params, answers and checkpoint and leaves the rest, signature included, readable", () => {
    const job = sampleJob({
      kind: 'resume',
      params: { ticket: 'the printer is on fire' },
      answers: { call_1: 'yes, refund it' },
      checkpoint: sampleCheckpoint('gen_job'),
      signature: 'abcd1234.00',
    });
    const stored = sealJob(sealer, job);
    expect(
      isSealedPayload(stored.params) && isSealedPayload(stored.answers) && isSealedPayload(stored.checkpoint),
    ).toBe(true);
    expect({ ...stored, params: 0, answers: 0, checkpoint: 0 }).toEqual({
      ...job,
      params: 0,
      answers: 0,
      checkpoint: 0,
    });
    const text = JSON.stringify(stored);
    expect(text).not.toMatch(/printer|refund it|scripted/);
    expect(openJob(sealer, JSON.parse(text))).toEqual(job);
    // A value sealed for one job does not open as another's.
    expect(() => openJob(sealer, { ...stored, id: 'another' })).toThrow(PayloadCodecError);
    // Nor as the same job of another generation: the generation id is part of what GCM authenticates.
    expect(() => openJob(sealer, { ...stored, generation_id: 'gen_other' })).toThrow(
      expect.objectContaining({ code: 'undecryptable_payload' }),
    );
  });

  it('keeps a dead letter readable by its queue, code and count, and seals the reason, the job and the raw bytes', () => {
    const job = sampleJob({ params: { ticket: 'the printer is on fire' } });
    const letter = {
      version: 1 as const,
      queue: 'desk',
      reason: { code: 'too_many_deliveries', message: 'last error: printer on fire' },
      job,
      raw: Buffer.from('printer').toString('base64'),
      attempt: 5,
      time: new Date().toISOString(),
    };
    const stored = sealDeadLetter(sealer, letter);
    expect(stored.reason.code).toBe('too_many_deliveries');
    expect(JSON.stringify(stored)).not.toMatch(/printer|cHJpbnRlcg/);
    expect(openDeadLetter(sealer, JSON.parse(JSON.stringify(stored)))).toEqual(letter);
    // A job no worker could open is kept as it came, and opens later with the key.
    expect(openJob(sealer, sealDeadLetter(sealer, { ...letter, job: sealJob(sealer, job) }).job as never)).toEqual(job);
  });

  it('with a codec refuses a plain value (plain_payload), and without one refuses a sealed one', () => {
    const event = sampleEvent('gen_plain', 0, 'completed');
    expect(() => openEvent(sealer, event)).toThrow(expect.objectContaining({ code: 'plain_payload' }));
    expect(openEvent(plain, event)).toBe(event);
    // Not a job at all: left for the handler to refuse, as without a codec.
    for (const malformed of [null, 'a job', 7, []]) expect(openJob(sealer, malformed as never)).toBe(malformed);
    expect(sealEvent(plain, event)).toBe(event);
    const sealed = sealEvent(sealer, event);
    let error: unknown;
    try {
      openEvent(plain, sealed);
    } catch (caught) {
      error = caught;
    }
    expect(PayloadCodecError.isInstance(error) && error.code).toBe('missing_payload_key');
    expect((error as Error).message).toContain(PAYLOAD_KEY_VARIABLE);
  });

  it(`defaults to ${PAYLOAD_KEY_VARIABLE}; false turns the codec off whatever the environment says; a bad key fails at once`, () => {
    const environment = { [PAYLOAD_KEY_VARIABLE]: key };
    const event = sampleEvent('gen_env', 0, 'completed');
    const fromEnvironment = createPayloadSealer(undefined, environment);
    expect(fromEnvironment.sealing).toBe(true);
    expect(openEvent(sealer, sealEvent(fromEnvironment, event))).toEqual(event);
    expect(createPayloadSealer(false, environment).sealing).toBe(false);
    expect(createPayloadSealer(undefined, {}).sealing).toBe(false);
    expect(() => createPayloadSealer(undefined, { [PAYLOAD_KEY_VARIABLE]: 'short' })).toThrow(PayloadCodecError);
  });
});
