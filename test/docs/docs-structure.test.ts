import { describe, expect, it } from 'vitest';
import { readRepositoryFile, repositoryFiles } from './repository-files.js';

/** The README is a front door: what Interlude is, the two commands, Install, the example, links. */
const README_MAX_BYTES = 12_288;

describe('the docs', () => {
  it(`keep the README within ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(readRepositoryFile('README.md'))).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('list every page of docs/ in docs/README.md and in the README', () => {
    const pages = repositoryFiles('docs/*.md').filter((file) => file !== 'docs/README.md');
    expect(pages.length).toBeGreaterThanOrEqual(10);
    const index = readRepositoryFile('docs/README.md');
    const readme = readRepositoryFile('README.md');
    expect(pages.filter((page) => !index.includes(`](${page.slice('docs/'.length)})`))).toEqual([]);
    expect(pages.filter((page) => !readme.includes(`](${page})`))).toEqual([]);
  });

  it('give each change in the CHANGELOG one line: no bullet wraps onto the next', () => {
    const lines = readRepositoryFile('CHANGELOG.md').split('\n');
    expect(lines.filter((line) => /^\s+\S/.test(line))).toEqual([]);
  });
});
