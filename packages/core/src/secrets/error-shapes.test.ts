import { format, inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest } from '../input-request/input-request.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { tool } from '../tool/tool.js';
import { Scrubber } from './scrub.js';
import { ScrubbedError, scrubError } from './scrubbed-error.js';

const CANARY = 'CANARY-51d0e2-secret';
const scrubber = new Scrubber();
scrubber.add(CANARY);

/** Every way the error shows: how console.error, util.inspect (hidden fields too), String and JSON print it. */
function everyPrint(error: Error): string {
  return [
    inspect(error, { showHidden: true, depth: Number.POSITIVE_INFINITY, getters: true }),
    format('%s %o %O', error, error, error),
    String(error),
    error.stack ?? '',
    jsonOf(error),
  ].join('\n');
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return ''; // a cycle: JSON cannot print it at all
  }
}

const hidden = Symbol('hidden');

const shapes: Array<[string, () => Error]> = [
  [
    'an AggregateError whose inner error carries it',
    () => new AggregateError([new Error('fine'), new TypeError(`bad token ${CANARY}`)], 'several failed'),
  ],
  ['a symbol-keyed property', () => Object.assign(new Error('request failed'), { [hidden]: { token: CANARY } })],
  ['a symbol whose description is it', () => Object.assign(new Error('request failed'), { [Symbol(CANARY)]: 1 })],
  [
    'a Map field',
    () =>
      Object.assign(new Error('request failed'), {
        headers: new Map([
          ['x-request', 'r1'],
          ['authorization', `Bearer ${CANARY}`],
        ]),
      }),
  ],
  ['a Set field', () => Object.assign(new Error('request failed'), { seen: new Set(['a', CANARY]) })],
  [
    'a non-enumerable property',
    () => Object.defineProperty(new Error('request failed'), 'config', { value: { auth: CANARY }, enumerable: false }),
  ],
  [
    'a fetch Headers, a URL and URLSearchParams (data in internal slots, shown only by how they print)',
    () =>
      Object.assign(new Error('request failed'), {
        headers: new Headers({ authorization: `Bearer ${CANARY}` }),
        url: new URL(`https://api.example/v1?token=${CANARY}`),
        query: new URLSearchParams({ token: CANARY }),
      }),
  ],
  ['7 causes deep', () => chain(7)],
  ['100 causes deep', () => chain(100)],
  [
    'a cause that is a Map in an array in a plain object',
    () => new Error('outer', { cause: { attempts: [new Map([[CANARY, 'key']])] } }),
  ],
  [
    'its own cause, with a secret',
    () => {
      const error = new Error(`loop ${CANARY}`);
      (error as { cause?: unknown }).cause = error;
      return error;
    },
  ],
  ['an own getter', () => Object.defineProperty(new Error('x'), 'token', { get: () => CANARY, enumerable: true })],
];

function chain(depth: number): Error {
  let error = new Error(`deepest: token ${CANARY}`);
  for (let level = depth; level > 0; level -= 1) error = new Error(`level ${level}`, { cause: error });
  return error;
}

describe('scrubbing an error of any shape', () => {
  for (const [name, make] of shapes) {
    it(`leaves no secret in ${name}, however it is printed`, () => {
      const original = make();
      expect(everyPrint(original)).toContain(CANARY);
      const scrubbed = scrubError(original, scrubber);
      expect(everyPrint(scrubbed)).not.toContain(CANARY);
      expect(everyPrint(scrubbed)).toContain('[FILTERED]');
    });
  }

  it('leaves no secret split over two fields, nor in a thrown string, nor 10,000 causes deep', () => {
    const split = scrubError(
      Object.assign(new Error('x'), { start: CANARY.slice(0, 10), end: CANARY.slice(10) }),
      scrubber,
    ) as Error & { start: string; end: string };
    expect([split.start, split.end]).toEqual(['[FILTERED]', '[FILTERED]']);
    const thrown = scrubError(`plain ${CANARY}`, scrubber);
    expect(everyPrint(thrown)).not.toContain(CANARY);
    expect(thrown.message).toBe('plain [FILTERED]');
    let link = scrubError(chain(10_000), scrubber) as Error | undefined;
    let links = 0;
    for (; link !== undefined; link = link.cause as Error | undefined) {
      links += 1;
      expect.soft(`${link.message}${link.stack}`).not.toContain(CANARY);
    }
    expect(links).toBe(10_001);
  });

  it('copies faithfully: class, flags, symbol keys, every Map and Set entry, every inner error, the whole chain', () => {
    const inner = new TypeError(`bad token ${CANARY}`);
    const aggregate = scrubError(
      new AggregateError([new Error('fine'), inner], 'several failed'),
      scrubber,
    ) as AggregateError;
    expect(aggregate).toBeInstanceOf(AggregateError);
    expect(aggregate.errors).toHaveLength(2);
    expect(aggregate.errors[1]).toBeInstanceOf(TypeError);
    expect((aggregate.errors[1] as Error).message).toBe('bad token [FILTERED]');
    expect(Object.getOwnPropertyDescriptor(aggregate, 'errors')?.enumerable).toBe(false);

    const headers = new Map([
      ['x-request', 'r1'],
      ['authorization', `Bearer ${CANARY}`],
    ]);
    const withMap = scrubError(Object.assign(new Error('failed'), { headers, [hidden]: CANARY }), scrubber) as Error & {
      headers: Map<string, string>;
      [hidden]: string;
    };
    expect([...withMap.headers]).toEqual([
      ['x-request', 'r1'],
      ['authorization', 'Bearer [FILTERED]'],
    ]);
    expect(withMap[hidden]).toBe('[FILTERED]');
    expect(headers.get('authorization')).toBe(`Bearer ${CANARY}`);

    const http = scrubError(
      Object.assign(new Error('failed'), {
        headers: new Headers({ authorization: `Bearer ${CANARY}`, 'x-request-id': 'r1' }),
        url: new URL(`https://api.example/v1?token=${CANARY}&page=2`),
      }),
      scrubber,
    ) as Error & { headers: Headers; url: URL };
    expect(http.headers).toBeInstanceOf(Headers);
    expect([...http.headers]).toEqual([
      ['authorization', 'Bearer [FILTERED]'],
      ['x-request-id', 'r1'],
    ]);
    expect(http.url).toBeInstanceOf(URL);
    expect(http.url.searchParams.get('page')).toBe('2');

    const config = { auth: CANARY };
    const nonEnumerable = scrubError(
      Object.defineProperty(new Error('failed'), 'config', { value: config, enumerable: false }),
      scrubber,
    );
    expect(Object.getOwnPropertyDescriptor(nonEnumerable, 'config')).toMatchObject({
      enumerable: false,
      value: { auth: '[FILTERED]' },
    });

    let link = scrubError(chain(7), scrubber) as Error | undefined;
    const messages: string[] = [];
    for (; link !== undefined; link = link.cause as Error | undefined) messages.push(link.message);
    expect(messages).toEqual([
      ...Array.from({ length: 7 }, (_, index) => `level ${index + 1}`),
      'deepest: token [FILTERED]',
    ]);

    const looped = new Error(`loop ${CANARY}`);
    (looped as { cause?: unknown }).cause = looped;
    const scrubbedLoop = scrubError(looped, scrubber);
    expect(scrubbedLoop.cause).toBe(scrubbedLoop);
  });

  it('keeps an error that holds no secret as it is, and the parts of one that hold none', () => {
    const clean = Object.assign(new Error('fine'), { headers: new Map([['a', 'b']]) });
    expect(scrubError(clean, scrubber)).toBe(clean);
    const untouched = { status: 500 };
    const scrubbed = scrubError(Object.assign(new Error(`bad ${CANARY}`), { response: untouched }), scrubber);
    expect((scrubbed as Error & { response: unknown }).response).toBe(untouched);
  });

  it('turns an error whose class prints the secret into a ScrubbedError that says what it dropped, in place', () => {
    class LeakyError extends Error {
      get detail() {
        return CANARY;
      }
    }
    class ThrowingError extends Error {}
    const throwing = Object.defineProperty(new ThrowingError(`x ${CANARY}`), 'lazy', {
      get: () => {
        throw new Error('no');
      },
    });
    const aggregate = scrubError(
      new AggregateError([new LeakyError(`oops ${CANARY}`), throwing, new Error('fine')]),
      scrubber,
    ) as AggregateError;
    const [leaky, thrown, fine] = aggregate.errors as [ScrubbedError, ScrubbedError, Error];
    expect(ScrubbedError.isInstance(leaky)).toBe(true);
    expect(leaky).toMatchObject({ message: 'oops [FILTERED]', originalName: 'Error', code: 'scrubbed_error' });
    expect(leaky.dropped).toEqual(['detail (a getter of its class)']);
    expect(ScrubbedError.isInstance(thrown)).toBe(true);
    expect(thrown.dropped).toEqual(['lazy (its getter threw)']);
    expect(ScrubbedError.isInstance(fine)).toBe(false);
    expect(everyPrint(aggregate)).not.toContain(CANARY);

    class PrintsIt extends Error {
      [inspect.custom]() {
        return CANARY;
      }
    }
    const printed = scrubError(new PrintsIt('x'), scrubber) as ScrubbedError;
    expect(printed.dropped).toEqual(['util.inspect.custom']);
  });
});

describe('the error resumeNow() rethrows after a secret answer', () => {
  for (const [name, make] of shapes) {
    it(`holds no secret when the model call throws ${name}`, async () => {
      const deploy = tool({
        name: 'deploy',
        description: 'Deploy with a token',
        input: z.object({}),
        run: (_, ctx) => (ctx.answer === undefined ? InputRequest.secret('Token?') : { deployed: true }),
      });
      const { agent } = scriptedAgent(
        () => ({ message: 'Deploy', tools: [deploy] }),
        [
          { toolCalls: [{ id: 'c_deploy', name: 'deploy', arguments: {} }] },
          () => {
            throw make();
          },
        ],
      );
      const asked = await agent.handle({}).generateNow();
      const thrown = await agent
        .handle({})
        .resumeNow({ checkpoint: throughJson(asked.checkpoint), answers: { c_deploy: CANARY } })
        .then(
          () => new Error('expected the resume to fail'),
          (error: unknown) => error as Error,
        );
      expect(thrown.message).not.toBe('expected the resume to fail');
      expect(everyPrint(thrown)).not.toContain(CANARY);
    });
  }
});
