import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** A small seeded generator, so a failure names the value it failed on and happens again. */
function randomJson(seed: number): () => unknown {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const pieces = ['a', 'B', 'é', '€', '\u{1F600}', '\n', '"', '\\', '\u0001', '\u2028', 'z', '10', '_', ' '];
  const text = () =>
    Array.from({ length: Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
  const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789.125, -2.5e-300, Number.MAX_SAFE_INTEGER, 5e-324, 1 / 3];
  const value = (depth: number): unknown => {
    const pick = next();
    if (depth > 3 || pick < 0.45) {
      const leaf = next();
      if (leaf < 0.3) return text();
      if (leaf < 0.6) return numbers[Math.floor(next() * numbers.length)] ?? 0;
      if (leaf < 0.7) return next() * 1e6 - 5e5;
      if (leaf < 0.85) return next() < 0.5;
      return null;
    }
    const size = Math.floor(next() * 5);
    if (pick < 0.7) return Array.from({ length: size }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: size }, () => [text(), value(depth + 1)]));
  };
  return () => value(0);
}

describe('canonicalJson', () => {
  it('gives one text whatever the key order, nested keys included', () => {
    const a = { b: 1, a: [{ y: 'x', x: 2 }], c: { e: true, d: null } };
    const reordered = { c: { d: null, e: true }, a: [{ x: 2, y: 'x' }], b: 1 };
    expect(canonicalJson(a)).toBe('{"a":[{"x":2,"y":"x"}],"b":1,"c":{"d":null,"e":true}}');
    expect(canonicalJson(reordered)).toBe(canonicalJson(a));
  });

  it('writes what JSON would store: Infinity as null, undefined as null', () => {
    expect(canonicalJson({ n: Number.POSITIVE_INFINITY })).toBe(canonicalJson(JSON.parse('{"n":null}')));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('writes each lone surrogate as its own escape, apart from U+FFFD and from every other, in values and keys', () => {
    const lone = JSON.parse('{"text":"a\\ud800b"}');
    expect(canonicalJson(lone)).toBe('{"text":"a\\ud800b"}');
    expect(canonicalJson(JSON.parse(JSON.stringify(lone)))).toBe(canonicalJson(lone));
    const texts = new Set<string>([canonicalJson({ text: 'a\uFFFDb' })]);
    for (let code = 0xd800; code <= 0xdfff; code += 1) {
      const character = String.fromCharCode(code);
      texts.add(canonicalJson({ text: `a${character}b` }));
      texts.add(canonicalJson({ [`k${character}`]: 1 }));
    }
    expect(texts.size).toBe(1 + 2 * 2_048);
  });

  it('writes JSON values exactly as the RFC 8785 reference package does', () => {
    const generate = randomJson(8785);
    for (let count = 0; count < 2_000; count += 1) {
      const value = generate();
      expect(canonicalJson(value), JSON.stringify(value)).toBe(canonicalize(value));
    }
    const withDate = { at: new Date(Date.UTC(2026, 0, 2)), skipped: undefined, list: [undefined, 1] };
    expect(canonicalJson(withDate)).toBe(canonicalize(withDate));
  });

  it('throws for a value with no JSON form', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => canonicalJson(cycle)).toThrow();
    expect(() => canonicalJson({ big: 1n })).toThrow();
  });
});
