import { beforeAll, describe, expect, it } from 'vitest';
import { compileBlocks, FRAGMENT_INFO, type TypeScriptBlock, typescriptBlocks } from './typescript-blocks.js';

const blocks = typescriptBlocks();
// One program for every block: about 10 s, most of it reading the packages' sources and the SDKs'.
let errors: Map<TypeScriptBlock, string[]>;
beforeAll(() => {
  errors = compileBlocks(blocks);
});

describe('the TypeScript in the docs', () => {
  it('compiles: every ```ts block of the README, docs/ and the package READMEs, as a module of its own', () => {
    expect(blocks.filter((block) => !block.fragment).length).toBeGreaterThan(10);
    const failing = blocks
      .filter((block) => !block.fragment)
      .flatMap((block) => (errors.get(block) ?? []).map((error) => `${block.where}: ${error}`));
    expect(failing).toEqual([]);
  });

  it(`marks a block "${FRAGMENT_INFO}" only when it cannot compile on its own`, () => {
    const stale = blocks.filter((block) => block.fragment && errors.get(block)?.length === 0);
    expect(stale.map((block) => `${block.where} compiles: drop "fragment" from its fence`)).toEqual([]);
  });
});
