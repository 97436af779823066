import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The compiler options of a careful user's project: `strict`, the two flags that catch most
 * sloppy declarations, and `skipLibCheck: false`, so every declaration file the program loads
 * (ours and our dependencies') is checked as well.
 */
export const STRICT_CONSUMER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  exactOptionalPropertyTypes: true,
  noPropertyAccessFromIndexSignature: true,
  skipLibCheck: false,
  outDir: 'dist',
  types: ['node'],
} as const;

/** An application folder outside the workspace that installed our tarballs with npm. */
export interface ConsumerProject {
  directory: string;
  /** What `npm install` wrote to stderr: its warnings, at `logLevel: 'warn'`. */
  installLog: string;
  /** Writes a source file under `src/`. */
  write(file: string, text: string): Promise<void>;
  /** `tsc -p .` with {@link STRICT_CONSUMER_OPTIONS}: compiles `src/` to `dist/`; resolves with its output. */
  compile(): Promise<{ exitCode: number; output: string }>;
  /** Runs `dist/<file>.js` with plain `node` (no loader, no tsx). */
  node(file: string, environment?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Creates `directory` as a fresh ESM application and installs `specifiers` (tarball paths and
 * `name@version`) with npm, in one `npm install`, as a user would: peer ranges are checked, so a
 * range that conflicts with what the user brings fails here with ERESOLVE. At `logLevel: 'warn'`
 * npm's warnings (EBADENGINE among them) are kept in `installLog`.
 */
export async function installConsumer(
  directory: string,
  specifiers: string[],
  options: { logLevel?: 'error' | 'warn' } = {},
): Promise<ConsumerProject> {
  await mkdir(join(directory, 'src'), { recursive: true });
  await writeFile(
    join(directory, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`,
  );
  await writeFile(
    join(directory, 'tsconfig.json'),
    `${JSON.stringify({ compilerOptions: STRICT_CONSUMER_OPTIONS, include: ['src'] }, null, 2)}\n`,
  );
  const logLevel = options.logLevel ?? 'error';
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', `--loglevel=${logLevel}`, ...specifiers],
    { cwd: directory, maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: Error & { stderr?: string }) => {
    throw new Error(`npm install in ${directory} failed:\n${error.stderr ?? error.message}`);
  });
  return {
    directory,
    installLog: installed.stderr,
    write: (file, text) => writeFile(join(directory, 'src', file), text),
    async compile() {
      const tsc = join(directory, 'node_modules', '.bin', 'tsc');
      try {
        const { stdout } = await run(tsc, ['-p', '.'], { cwd: directory, maxBuffer: 16 * 1024 * 1024 });
        return { exitCode: 0, output: stdout };
      } catch (error) {
        const failure = error as { code?: number; stdout?: string };
        return { exitCode: failure.code ?? 1, output: failure.stdout ?? String(error) };
      }
    },
    node: (file, environment = {}) =>
      run(process.execPath, [join('dist', `${file}.js`)], {
        cwd: directory,
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...environment },
      }),
  };
}
