import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('gives one text whatever the key order, nested keys included', () => {
    const a = { b: 1, a: [{ y: 'x', x: 2 }], c: { e: true, d: null } };
    const reordered = { c: { d: null, e: true }, a: [{ x: 2, y: 'x' }], b: 1 };
    expect(canonicalJson(a)).toBe('{"a":[{"x":2,"y":"x"}],"b":1,"c":{"d":null,"e":true}}');
    expect(canonicalJson(reordered)).toBe(canonicalJson(a));
  });

  it('reads what JSON would store: Infinity as null, a lone surrogate as U+FFFD, undefined as null', () => {
    expect(canonicalJson({ n: Number.POSITIVE_INFINITY })).toBe(canonicalJson(JSON.parse('{"n":null}')));
    const lone = JSON.parse('{"text":"a\\ud800b"}');
    expect(canonicalJson(lone)).toBe('{"text":"a\uFFFDb"}');
    expect(canonicalJson(JSON.parse(JSON.stringify(lone)))).toBe(canonicalJson(lone));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('throws for a value with no JSON form', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => canonicalJson(cycle)).toThrow();
  });
});
