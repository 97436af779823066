import { describe, expect, it } from 'vitest';
import { readRepositoryFile } from './repository-files.js';

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

const readme = readRepositoryFile('README.md');
const headings = [...readme.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^(#{2,3}) (.+)$/gm)].map((match) => ({
  level: (match[1] as string).length,
  anchor: anchorOf(match[2] as string),
}));
const contents = /^## Contents\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
const linked = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] as string);

describe("the README's table of contents", () => {
  it('lists every section', () => {
    const sections = headings.filter((heading) => heading.level === 2 && heading.anchor !== 'contents');
    expect(sections.length).toBeGreaterThan(10);
    expect(sections.map((section) => section.anchor).filter((anchor) => !linked.includes(anchor))).toEqual([]);
  });

  it('links only to headings that exist', () => {
    const anchors = headings.map((heading) => heading.anchor);
    expect(linked.filter((anchor) => !anchors.includes(anchor))).toEqual([]);
  });
});
