import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's root, where `tsconfig.build.json` sits. */
export const WORKSPACE_ROOT = resolve(import.meta.dirname, '..', '..');

/** The packages we publish, in dependency order. */
export const PUBLISHED_PACKAGES = ['core', 'providers', 'bus', 'telemetry', 'gateway'] as const;
export type PublishedPackage = (typeof PUBLISHED_PACKAGES)[number];

/** One packed package: the tarball users would download, and the manifest it carries. */
export interface PackedPackage {
  name: string;
  tarball: string;
}

/**
 * Builds every package afresh (`tsc -b` into emptied `dist/` folders) and packs it with `pnpm pack` into `destination`,
 * exactly as `pnpm publish` would: pnpm swaps in `publishConfig.exports` and turns `workspace:`
 * ranges into versions, so the tarball is what a user installs, not what the workspace runs.
 */
export async function packWorkspace(destination: string): Promise<Record<PublishedPackage, PackedPackage>> {
  // From scratch: `tsc -b` never deletes what a source removed since the last build emitted, and a
  // stale file would ship in the tarball.
  for (const name of PUBLISHED_PACKAGES)
    rmSync(join(WORKSPACE_ROOT, 'packages', name, 'dist'), { recursive: true, force: true });
  await run(join(WORKSPACE_ROOT, 'node_modules', '.bin', 'tsc'), ['-b', join(WORKSPACE_ROOT, 'tsconfig.build.json')], {
    cwd: WORKSPACE_ROOT,
  });
  const packed = {} as Record<PublishedPackage, PackedPackage>;
  for (const name of PUBLISHED_PACKAGES) {
    const directory = join(WORKSPACE_ROOT, 'packages', name);
    const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    await run('pnpm', ['pack', '--pack-destination', destination], { cwd: directory }).catch((error: Error) => {
      throw new Error(`pnpm pack failed in packages/${name} (is pnpm 12 on the PATH?): ${error.message}`);
    });
    const file = `${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;
    packed[name] = { name: manifest.name, tarball: join(destination, file) };
  }
  return packed;
}

/** The paths inside a tarball (without the leading `package/`). */
export async function tarballEntries(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball]);
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}
