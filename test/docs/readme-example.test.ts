import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from './repository-files.js';

const MARKER =
  '<!-- The block below is examples/refund-approval.ts; test/docs/readme-example.test.ts keeps them equal. -->';

describe("the README's example", () => {
  it('is examples/refund-approval.ts, character for character', () => {
    const readme = readRepositoryFile('README.md');
    const start = readme.indexOf(MARKER);
    expect(start, 'the marker above the block is gone').toBeGreaterThan(-1);
    const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(start + MARKER.length));
    expect(block?.[1]).toBe(readRepositoryFile('examples/refund-approval.ts'));
  });

  it('fits on one screen and defines every name it uses', () => {
    const example = readRepositoryFile('examples/refund-approval.ts');
    expect(example.split('\n').length).toBeLessThanOrEqual(50);
    // What the old example used without defining it.
    for (const undefinedName of ['db.', 'lookupOrder', 'closeAccount', 'refunds.create', 'tool_call_id']) {
      expect(example).not.toContain(undefinedName);
    }
  });
});
