import { describe, expect, it } from 'vitest';
import { startDemo } from '../demo/support/demo-process.js';
import { markdownCode, readRepositoryFile, repositoryFiles } from './repository-files.js';

const ONE_WAY = 'npx -y pnpm@12.4.2';

describe('pnpm in the docs', () => {
  it(`is always run as \`${ONE_WAY}\`, never as a bare pnpm a fresh machine lacks`, () => {
    const bare = repositoryFiles('*.md').flatMap((file) =>
      markdownCode(readRepositoryFile(file))
        .flatMap((code) => code.split('\n'))
        .filter((line) => /(?<![\w@/.-])pnpm [a-z-]/.test(line.replaceAll(`${ONE_WAY} `, '')))
        .map((line) => `${file}: ${line.trim()}`),
    );
    expect(bare).toEqual([]);
  });

  it('is run the same way in the hints the demo prints', async () => {
    const demo = await startDemo();
    try {
      await expect.poll(() => demo.output(), { timeout: 10_000 }).toContain('Terminal:');
      expect(demo.output()).toContain(`Terminal: ${ONE_WAY} --filter @interlude/demo cli pending`);
      expect(demo.output()).not.toMatch(/(?<!npx -y )pnpm --filter/);
    } finally {
      await demo.stop();
    }
  });
});
