import { describe, expect, it } from 'vitest';
import { readRepositoryFile, repositoryFiles } from './repository-files.js';

/** Names of documents that live outside the repository: a reader of the repo cannot open them. */
const OUTSIDE_DOCUMENTS = /DESIGN(?:\.md| §)|STACK\.md|STYLE\.md|\/work\/shared/;

describe('the docs and comments', () => {
  it('cite no document outside the repository (ARCHITECTURE.md says what is)', () => {
    const citing = repositoryFiles('*.md', '*.ts', '*.sh', '*.json')
      .filter((file) => file !== 'test/docs/outside-references.test.ts')
      .flatMap((file) =>
        readRepositoryFile(file)
          .split('\n')
          .map((line, index) => ({ file, line, number: index + 1 }))
          .filter(({ line }) => OUTSIDE_DOCUMENTS.test(line))
          .map(({ file, number, line }) => `${file}:${number}: ${line.trim()}`),
      );
    expect(citing).toEqual([]);
  });
});
