import { describe, expect, it } from 'vitest';
import { readRepositoryFile, repositoryFiles } from './repository-files.js';

/** Lines shorter than this (a list item's tail, a short note) may repeat by chance. */
const MIN_LENGTH = 60;

/** Each line of prose of a Markdown file: no code blocks, no headings, no blank lines. */
function proseLines(markdown: string): string[] {
  return markdown
    .replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length >= MIN_LENGTH && !line.startsWith('#'));
}

describe('the docs', () => {
  it('explain each thing once: no line of prose appears in two documents', () => {
    // The changelog records changes, so it restates what the docs explain; fixtures are data.
    const files = repositoryFiles('*.md').filter((file) => file !== 'CHANGELOG.md' && !file.includes('__fixtures__'));
    const firstHome = new Map<string, string>();
    const repeated: string[] = [];
    for (const file of files) {
      for (const line of new Set(proseLines(readRepositoryFile(file)))) {
        const home = firstHome.get(line);
        if (home === undefined) firstHome.set(line, file);
        else repeated.push(`${file} repeats ${home}: ${line}`);
      }
    }
    expect(repeated).toEqual([]);
  });
});
