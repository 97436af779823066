import { describe, expect, it } from 'vitest';
import { secretFormsIn, secretInEveryForm } from '../testing/secret-in-every-form.js';
import { FILTERED, Scrubber } from './scrub.js';
import { scrubError } from './scrubbed-error.js';

// Quotes, a backslash, a slash, a plus and letters outside ASCII: every encoding differs from the text.
const CANARY = 'Canary-1f2e3d4c5b6a-Ünï "kéy" /+? \\ ??';

function scrubberOf(...secrets: unknown[]): Scrubber {
  const scrubber = new Scrubber();
  for (const secret of secrets) scrubber.add(secret);
  return scrubber;
}

describe('a secret in the forms a tool writes it', () => {
  it('is found by the canary check in every form before scrubbing, and in none after', () => {
    const result = secretInEveryForm(CANARY);
    // The check itself sees each form (so a clean result below means something).
    expect(secretFormsIn(JSON.stringify(result), CANARY)).toEqual(['base64', 'bytes', 'hex', 'json', 'text', 'url']);
    for (const [name, value] of Object.entries(result)) {
      if (name.startsWith('split_')) continue;
      expect.soft(secretFormsIn(JSON.stringify(value), CANARY), name).not.toEqual([]);
    }
    const scrubbed = scrubberOf(CANARY).value(result);
    expect(secretFormsIn(JSON.stringify(scrubbed), CANARY)).toEqual([]);
    expect(Object.keys(scrubbed)).toEqual(Object.keys(result));
    expect(scrubbed).toMatchObject({
      as_typed: `token ${FILTERED} accepted`,
      upper_case: FILTERED,
      lower_case: FILTERED,
      nfd: FILTERED,
      json: `{"token":"${FILTERED}"}`,
      hex: `0x${FILTERED}`,
      base64: FILTERED,
      base64url: FILTERED,
      split_start: FILTERED,
      split_end: FILTERED,
    });
  });

  it('in base64 inside longer data, at every offset of its group, standard and URL-safe', () => {
    const scrubber = scrubberOf(CANARY);
    for (let prefix = 0; prefix < 6; prefix += 1) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${'p'.repeat(prefix)}${CANARY}tail`).toString(encoding);
        const scrubbed = scrubber.text(`header ${encoded} footer`);
        expect(scrubbed, `${encoding}, ${prefix} bytes before`).toContain(FILTERED);
        expect(secretFormsIn(scrubbed, CANARY), `${encoding}, ${prefix} bytes before`).toEqual([]);
      }
    }
  });

  it('URL-encoded in lower-case escapes, JSON-escaped in another string, hex in either case, mixed case, bytes written into text', () => {
    const scrubber = scrubberOf(CANARY);
    const lowerEscapes = encodeURIComponent(CANARY).replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
    const mixedCase = [...CANARY].map((character, index) => (index % 2 ? character.toUpperCase() : character)).join('');
    const texts = [
      `?t=${lowerEscapes}`,
      `log: ${JSON.stringify({ request: JSON.stringify({ token: CANARY }) })}`,
      Buffer.from(CANARY).toString('hex').toUpperCase(),
      mixedCase,
      CANARY.normalize('NFD').toUpperCase(),
      `bytes ${JSON.stringify({ view: new Uint8Array(Buffer.from(CANARY)) })}`,
      `bytes ${JSON.stringify(JSON.stringify([...Buffer.from(CANARY)]))}`,
    ];
    for (const text of texts) expect(secretFormsIn(scrubber.text(text), CANARY), text).toEqual([]);
  });

  it('JSON-escaped at any depth: a secret in an error body, in a log line, in a message', () => {
    const scrubber = scrubberOf(`${CANARY}\n\u0001`);
    let nested: unknown = { token: `${CANARY}\n\u0001` };
    for (let depth = 1; depth <= 4; depth += 1) {
      nested = { depth, body: JSON.stringify(nested) };
      const written = JSON.stringify(nested);
      expect(secretFormsIn(scrubber.text(written), CANARY), `${depth} levels`).toEqual([]);
      expect(scrubber.text(written), `${depth} levels`).toContain(FILTERED);
    }
  });

  it('typed in NFD is found written in NFC, and the other way round', () => {
    expect(scrubberOf(CANARY.normalize('NFD')).text(`x ${CANARY.normalize('NFC')} y`)).toBe(`x ${FILTERED} y`);
    expect(scrubberOf(CANARY.normalize('NFC')).text(`x ${CANARY.normalize('NFD')} y`)).toBe(`x ${FILTERED} y`);
  });

  it('as bytes: a Buffer, a Uint8Array, byte values and their JSON shapes, with the bytes around it kept', () => {
    const scrubber = scrubberOf(CANARY);
    const bytes = Buffer.from(`<<${CANARY}>>`);
    const filteredBytes = [...Buffer.from(`<<${FILTERED}>>`)];
    const scrubbed = scrubber.value({
      buffer: bytes,
      view: new Uint8Array(bytes),
      values: [...bytes],
      json: JSON.parse(JSON.stringify({ buffer: bytes })).buffer,
    });
    expect(scrubbed.buffer).toEqual({ type: 'Buffer', data: filteredBytes });
    expect(Object.values(scrubbed.view)).toEqual(filteredBytes);
    expect(scrubbed.values).toEqual(filteredBytes);
    expect(scrubbed.json).toEqual({ type: 'Buffer', data: filteredBytes });
    // Bytes that hold no secret are written as JSON writes them, untouched.
    expect(scrubber.value({ image: Buffer.from([1, 2, 3, 4, 5, 6]) })).toEqual({
      image: { type: 'Buffer', data: [1, 2, 3, 4, 5, 6] },
    });
  });

  it('split over adjacent strings of one object or array, at any point', () => {
    const scrubber = scrubberOf(CANARY);
    for (let cut = 1; cut < CANARY.length; cut += 1) {
      const head = CANARY.slice(0, cut);
      const tail = CANARY.slice(cut);
      const scrubbed = scrubber.value({ id: 7, start: `token: ${head}`, end: `${tail} (end)`, parts: [head, tail] });
      expect(scrubbed).toEqual({
        id: 7,
        start: `token: ${FILTERED}`,
        end: `${FILTERED} (end)`,
        parts: [FILTERED, FILTERED],
      });
    }
  });

  it('leaves a value without the secret as JSON would write it', () => {
    const scrubber = scrubberOf(CANARY);
    const value = {
      order_id: 1042,
      amount: 10.5,
      when: new Date('2025-01-05T10:00:00Z'),
      tags: ['a', 'b'],
      nested: { list: [1, 2, 3, 300], flag: true, nothing: null },
    };
    expect(scrubber.value(value)).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('in an error message or cause, encoded, is scrubbed like the plain secret', () => {
    const scrubber = scrubberOf(CANARY);
    const encoded = Buffer.from(CANARY).toString('base64');
    const error = new Error(`rejected Authorization: Bearer ${encoded}`, {
      cause: new Error(`body was ${encodeURIComponent(CANARY)}`),
    });
    const safe = scrubError(error, scrubber);
    expect(safe.message).toBe(`rejected Authorization: Bearer ${FILTERED}`);
    expect((safe.cause as Error).message).toBe(`body was ${FILTERED}`);
  });
});

describe('an object secret', () => {
  it('is scrubbed by its keys as well as its values', () => {
    const scrubber = scrubberOf({ 'acct-8812-secret-key': 'value-7f3a9c', nested: { 'pin-code-4921': 1 } });
    const scrubbed = scrubber.value({
      saved: { 'acct-8812-secret-key': 'value-7f3a9c' },
      note: 'stored under acct-8812-secret-key and pin-code-4921',
    });
    expect(scrubbed).toEqual({ saved: { [FILTERED]: FILTERED }, note: `stored under ${FILTERED} and ${FILTERED}` });
  });

  it("keeps the keys its request's schema declares: the tool wrote them before anyone answered", () => {
    const scrubber = new Scrubber();
    scrubber.add(
      { username: 'ada-lovelace', password: 'correct-horse', extra_key_typed: 'x' },
      { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } },
    );
    expect(scrubber.value({ username: 'ada-lovelace', password_changed: true, note: 'extra_key_typed' })).toEqual({
      username: FILTERED,
      password_changed: true,
      note: FILTERED,
    });
  });
});

describe('a short secret', () => {
  it('a one-character secret leaves order ids, amounts and dates intact and replaces only whole values', () => {
    const scrubber = scrubberOf('1');
    const model = { order_id: 1042, amount: 10.5, date: '2025-01-05', at: '2025-11-21T10:01:00Z', text: 'PIN 1 ok' };
    expect(scrubber.value(model)).toEqual(model);
    expect(scrubber.value({ pin: '1', also: 1, list: [1, 11] })).toEqual({
      pin: FILTERED,
      also: FILTERED,
      list: [FILTERED, 11],
    });
  });

  it('three characters are still short; four are matched inside text', () => {
    const three = scrubberOf('abc');
    expect(three.value({ name: 'abcdef', same: 'ABC', bytes: [...Buffer.from('xxabcxx')] })).toEqual({
      name: 'abcdef',
      same: FILTERED,
      bytes: [...Buffer.from('xxabcxx')],
    });
    expect(scrubberOf('4921').value({ text: 'pin 4921!', order: 14921 })).toEqual({
      text: `pin ${FILTERED}!`,
      order: FILTERED,
    });
  });
});
