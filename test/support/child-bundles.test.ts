import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childArguments } from './child-bundles.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('child processes of a run', () => {
  it('start from the bundles the global setup built, not under tsx', () => {
    const [bundle, ...rest] = childArguments(join(here, 'reliability-worker-process.ts'));
    expect(rest).toEqual([]);
    expect(bundle).toMatch(/interlude-child-bundles\/run-[^/]+\/reliability-worker-process\.mjs$/);
    expect(existsSync(bundle as string)).toBe(true);
  });

  it('start a script that is not bundled under tsx', () => {
    const script = join(here, 'worker-bin-agents.ts');
    expect(childArguments(script)).toEqual(['--import', 'tsx', script]);
  });
});
