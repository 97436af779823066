import { describe, expect, it } from 'vitest';
import { secretFormsIn } from '../testing/secret-in-every-form.js';
import { FILTERED, Scrubber } from './scrub.js';

const CANARY = 'Canary-7f3a9c-Secret';
const scrubber = new Scrubber();
scrubber.add(CANARY);

/** Base64 broken into lines of `width` characters, as MIME (76, CRLF) and PEM (64, LF) write it. */
function wrapped(base64: string, width: number, lineBreak: string): string {
  return base64.match(new RegExp(`.{1,${width}}`, 'g'))?.join(lineBreak) ?? '';
}

/** Data around the secret, so wrapping and base64's groups fall at every place within it. */
function around(secret: string, prefix: number): string {
  return `${'x'.repeat(prefix)}user:${secret};${'y'.repeat(40)}`;
}

describe('the encoded forms of a secret the scrubber catches', () => {
  const rows: Array<[string, (prefix: number) => string]> = [
    [
      'base64 of the secret upper-cased',
      (prefix) => Buffer.from(around(CANARY.toUpperCase(), prefix)).toString('base64'),
    ],
    [
      'base64 of the secret lower-cased',
      (prefix) => Buffer.from(around(CANARY.toLowerCase(), prefix)).toString('base64'),
    ],
    [
      'capital-letter hex of the upper-cased secret',
      (prefix) => Buffer.from(around(CANARY.toUpperCase(), prefix)).toString('hex').toUpperCase(),
    ],
    [
      'base64 wrapped at 76 columns with CRLF (MIME)',
      (prefix) => wrapped(Buffer.from(around(CANARY, prefix).repeat(3)).toString('base64'), 76, '\r\n'),
    ],
    [
      'base64 wrapped at 64 columns with LF (PEM)',
      (prefix) =>
        `-----BEGIN DATA-----\n${wrapped(Buffer.from(around(CANARY, prefix)).toString('base64'), 64, '\n')}\n-----END DATA-----`,
    ],
    [
      'wrapped base64 inside JSON (its line breaks escaped)',
      (prefix) => JSON.stringify({ body: wrapped(Buffer.from(around(CANARY, prefix)).toString('base64'), 76, '\r\n') }),
    ],
    ['base64 of its UTF-16LE bytes', (prefix) => Buffer.from(around(CANARY, prefix), 'utf16le').toString('base64')],
    ['hex of its UTF-16LE bytes', (prefix) => Buffer.from(around(CANARY, prefix), 'utf16le').toString('hex')],
    [
      'base64 of its UTF-16BE bytes',
      (prefix) => Buffer.from(around(CANARY, prefix), 'utf16le').swap16().toString('base64'),
    ],
  ];
  for (const [name, make] of rows) {
    it(name, () => {
      for (let prefix = 0; prefix < 80; prefix += 1) {
        const text = make(prefix);
        expect(secretFormsIn(text, CANARY), `${prefix} bytes before: the check sees it`).not.toEqual([]);
        const scrubbed = scrubber.text(text);
        expect(secretFormsIn(scrubbed, CANARY), `${prefix} bytes before`).toEqual([]);
        expect(scrubbed).toContain(FILTERED);
      }
    });
  }

  it('split over two strings with a number, a boolean or null between, in an array or an object', () => {
    for (let cut = 1; cut < CANARY.length; cut += 1) {
      const [head, tail] = [CANARY.slice(0, cut), CANARY.slice(cut)];
      expect(scrubber.value([head, 42, tail])).toEqual([FILTERED, 42, FILTERED]);
      expect(scrubber.value({ start: head, attempt: 2, ok: false, none: null, end: tail })).toEqual({
        start: FILTERED,
        attempt: 2,
        ok: false,
        none: null,
        end: FILTERED,
      });
    }
    // An object or array between is another value's: the halves are not joined across it.
    expect(scrubber.value(['Canary-7f3a', { id: 1 }, '9c-Secret'])).toEqual(['Canary-7f3a', { id: 1 }, '9c-Secret']);
  });

  it('leaves base64, hex and text that do not hold it as they are', () => {
    const clean = [
      Buffer.from('Canary-7f3a9c-Other and more').toString('base64'),
      wrapped(Buffer.from('unrelated '.repeat(30)).toString('base64'), 76, '\r\n'),
      Buffer.from('unrelated', 'utf16le').toString('base64'),
      ['Canary-7f3a', 42, 'other'],
    ];
    for (const value of clean) expect(scrubber.value(value)).toEqual(value);
  });
});
