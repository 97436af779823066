import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's root. */
export const REPOSITORY_ROOT = resolve(import.meta.dirname, '..', '..');

/** The files git tracks or would add (not ignored), matching `patterns`, relative to the root. */
export function repositoryFiles(...patterns: string[]): string[] {
  const output = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  return [...new Set(output.split('\n').filter((file) => file !== ''))].sort();
}

/** A repository file's text. */
export function readRepositoryFile(file: string): string {
  return readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
}

/** The code in a Markdown text: fenced blocks, then inline spans, as written. */
export function markdownCode(markdown: string): string[] {
  const fenced = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
  return [...fenced, ...inline];
}
