import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const TEST_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The scripts the suite starts as processes by the dozen (workers, resumers, askers). Each is
 * bundled with the Interlude packages it imports, once per run: under tsx a child spends about
 * 1.5 s of CPU loading core and the bus file by file through the loader thread before it does
 * anything, bundled about 0.25 s, and the soak tier alone starts about 60 of them. The bins a user
 * starts the documented way under tsx (`interlude-worker`, `interlude-gateway`, the demo, the
 * examples) are still started that way by their own tests.
 */
const CHILD_SCRIPTS = [
  'support/bus-worker-process.ts',
  'support/embedded-worker-process.ts',
  'support/expiring-question-process.ts',
  'support/nested-tree-process.ts',
  'support/reliability-resume-process.ts',
  'support/reliability-worker-process.ts',
  'support/secret-option-resume-process.ts',
  'explorer/explorer-resumer-process.ts',
  'explorer/explorer-worker-process.ts',
];

/**
 * Under the test package's node_modules, so the bundles import the npm packages installed there;
 * a folder per run, so two runs in one checkout (the suite in one terminal, a file in another)
 * never build over each other's children.
 */
const BUNDLES_ROOT = join(TEST_ROOT, 'node_modules', '.cache', 'interlude-child-bundles');

/** A run's folder older than this is one a killed run left behind. */
const LEFT_BEHIND_MS = 24 * 60 * 60 * 1000;

/** Set by the run's global setup once the bundles are built: where children are started from. */
const BUNDLES_VARIABLE = 'INTERLUDE_TEST_CHILD_BUNDLES';

/**
 * Builds every child script into one ESM file (shared code in chunks beside them): the Interlude
 * packages and the test's own modules are bundled from their TypeScript sources; npm packages stay
 * imports, loaded as Node loads them for a user. Called by the global setup, so every run starts
 * its children from the sources it tests.
 */
export async function buildChildBundles(): Promise<{ remove(): Promise<void> }> {
  await mkdir(BUNDLES_ROOT, { recursive: true });
  await removeLeftBehind();
  const bundles = await mkdtemp(join(BUNDLES_ROOT, 'run-'));
  await build({
    entryPoints: CHILD_SCRIPTS.map((script) => join(TEST_ROOT, script)),
    outdir: bundles,
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    plugins: [npmPackagesStayImports],
  });
  process.env[BUNDLES_VARIABLE] = bundles;
  return { remove: () => rm(bundles, { recursive: true, force: true }) };
}

async function removeLeftBehind(): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(BUNDLES_ROOT)) {
    const folder = join(BUNDLES_ROOT, name);
    const { mtimeMs } = await stat(folder);
    if (now - mtimeMs > LEFT_BEHIND_MS) await rm(folder, { recursive: true, force: true });
  }
}

/** Bare specifiers other than `@interlude/*` are npm packages: left for Node to resolve. */
const npmPackagesStayImports: Plugin = {
  name: 'npm-packages-stay-imports',
  setup(plugins) {
    plugins.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      path.startsWith('@interlude/') ? undefined : { path, external: true },
    );
  },
};

/**
 * The Node arguments that start `script` (an absolute path): its bundle when the run built one,
 * else the script itself under tsx (a run without the global setup, a script not listed above).
 */
export function childArguments(script: string): string[] {
  const bundles = process.env[BUNDLES_VARIABLE];
  const listed = CHILD_SCRIPTS.some((listedScript) => join(TEST_ROOT, listedScript) === script);
  const bundle = bundles && join(bundles, basename(script).replace(/\.ts$/, '.mjs'));
  return listed && bundle && existsSync(bundle) ? [bundle] : ['--import', 'tsx', script];
}
