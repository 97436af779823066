import { describe, expect, it } from 'vitest';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting-depth.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { inner: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it('counts arrays and objects, not scalars', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan({ wide: Array.from({ length: 1_000 }, () => ({ a: [1] })) }, 4)).toBe(false);
  });

  it('answers for a value nested 100,000 deep without overflowing the stack (JSON.stringify does not)', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(nestsDeeperThan(deep)).toBe(true);
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH))).toBe(false);
  });
});
