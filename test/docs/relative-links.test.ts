import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT, readRepositoryFile, repositoryFiles } from './repository-files.js';

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The Markdown without its fenced code blocks: a `#` line there is not a heading. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** The Markdown without any code: links there are not links. */
function prose(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]+`/g, '');
}

const anchorsByFile = new Map<string, Set<string>>();

/** The anchors of a Markdown file's headings, repeated ones numbered as GitHub numbers them. */
function anchorsOf(file: string): Set<string> {
  const known = anchorsByFile.get(file);
  if (known !== undefined) return known;
  const anchors = new Set<string>();
  for (const match of withoutCodeBlocks(readRepositoryFile(file)).matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(match[1] as string);
    let candidate = anchor;
    for (let count = 1; anchors.has(candidate); count += 1) candidate = `${anchor}-${count}`;
    anchors.add(candidate);
  }
  anchorsByFile.set(file, anchors);
  return anchors;
}

/** Every relative link of a Markdown file that leads nowhere: a missing file or heading. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const match of prose(readRepositoryFile(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] as string;
    if (/^[a-z]+:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : relative(REPOSITORY_ROOT, join(REPOSITORY_ROOT, dirname(file), path));
    const absolute = join(REPOSITORY_ROOT, resolved);
    if (!existsSync(absolute)) {
      broken.push(`${file}: ${target} (no such file)`);
    } else if (anchor !== undefined && statSync(absolute).isFile() && resolved.endsWith('.md')) {
      if (!anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
    }
  }
  return broken;
}

describe('relative links in the docs', () => {
  it('lead to a file that exists and, with an anchor, to a heading in it', () => {
    const files = repositoryFiles('*.md').filter((file) => !file.includes('__fixtures__'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });
});
