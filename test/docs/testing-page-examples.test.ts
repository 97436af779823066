import { describe, expect, it } from 'vitest';
import { readRepositoryFile, repositoryFiles } from './repository-files.js';

/** The marker above each block of docs/testing.md that is a file of test/docs/testing-page (the NATS one runs from testing-page-nats.test.ts). */
const MARKER =
  /<!-- The block below is (test\/docs\/testing-page\/[\w.-]+\.ts); test\/docs\/testing-page-examples\.test\.ts keeps them equal\. -->\n```ts\n([\s\S]*?)^```$/gm;

describe('the examples of docs/testing.md', () => {
  const page = readRepositoryFile('docs/testing.md');
  const marked = [...page.matchAll(MARKER)].map((match) => ({ file: match[1] as string, block: match[2] as string }));

  it('show every file of test/docs/testing-page, once each', () => {
    expect(marked.map((example) => example.file).sort()).toEqual(repositoryFiles('test/docs/testing-page/*.ts'));
  });

  it.each(marked)('$file is the block of the page, character for character', ({ file, block }) => {
    expect(block).toBe(readRepositoryFile(file));
  });
});
