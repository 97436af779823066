import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/** A package as its manifest describes it: where it sits and what its `exports` map and `bin` point at. */
export interface PackageFiles {
  directory: string;
  /** Every `exports` target (`import` and `types`) and `bin` target, relative to `directory`. */
  entryPoints: string[];
}

const RELATIVE_SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The files of a built package that its exports can reach, following relative imports in the
 * emitted `.js` and `.d.ts` (type-only imports are gone from the `.js`, so both are walked), plus
 * each file's source map. What a tarball holds beyond this is dead weight a user downloads: a
 * test helper the build picked up.
 */
export function reachableFiles(files: PackageFiles): Set<string> {
  const reached = new Set<string>();
  const pending = files.entryPoints.map((entry) => resolve(files.directory, entry));
  while (pending.length > 0) {
    const file = pending.pop() as string;
    const name = relative(files.directory, file);
    if (reached.has(name) || !existsSync(file)) continue;
    reached.add(name);
    if (existsSync(`${file}.map`)) reached.add(`${name}.map`);
    // An entry point's declarations ship with it, a bin's included (imports get theirs below).
    if (file.endsWith('.js')) pending.push(file.replace(/\.js$/, '.d.ts'));
    for (const match of readFileSync(file, 'utf8').matchAll(RELATIVE_SPECIFIER)) {
      const target = resolve(dirname(file), match[1] as string);
      pending.push(target);
      if (target.endsWith('.js')) pending.push(target.replace(/\.js$/, '.d.ts'));
    }
  }
  return reached;
}

/** Every `types` and `import` target of a manifest's `exports` map. */
export function exportTargets(exportsMap: unknown): string[] {
  if (typeof exportsMap === 'string') return [exportsMap];
  if (exportsMap === null || typeof exportsMap !== 'object') return [];
  return Object.values(exportsMap).flatMap(exportTargets);
}

/** Every entry point of a manifest: its `exports` targets and its `bin` targets. */
export function entryTargets(manifest: { exports?: unknown; bin?: unknown }): string[] {
  return [...exportTargets(manifest.exports), ...exportTargets(manifest.bin)].filter(
    (target) => target !== './package.json',
  );
}
