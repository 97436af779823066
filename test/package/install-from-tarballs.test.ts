import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { natsBus, WORKER_METRICS } from '@interlude/bus';
import { createRuntime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { anthropicReply, createWireServer, type WireServer } from '@interlude/providers/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import exampleAgents from '../../examples/worker-agents.js';
import { METRICS_SDK } from '../../packages/bus/src/worker-process/metric-export.js';
import { TRACES_SDK } from '../../packages/bus/src/worker-process/trace-export.js';
import { watchChild } from '../support/bus-child-process.js';
import { startOtlpReceiver } from '../support/otlp-receiver.js';
import { waitUntil } from '../support/reliability-wait.js';
import { probe } from '../support/worker-bin-process.js';
import { type ConsumerProject, installConsumer } from './consumer-project.js';
import { compilerErrors, isUpstreamDeclarationError, UPSTREAM_DECLARATION_ERRORS } from './declaration-errors.js';
import {
  type PackedPackage,
  PUBLISHED_PACKAGES,
  packWorkspace,
  tarballEntries,
  WORKSPACE_ROOT,
} from './pack-workspace.js';
import { entryTargets, reachableFiles } from './reachable-files.js';

/** What a package ships beside `dist/`, `README.md`, `LICENSE` and `package.json`, and why. */
const OTHER_SHIPPED_FILES: Record<string, string[]> = {
  // The nats-server roles its README links to and tells operators to include.
  bus: ['nats/interlude-roles.conf', 'asyncapi.json'],
};

/** An export that maps to a data file (the wire contract), not to code: imported with a JSON import attribute. */
function isDataExport(target: unknown): target is string {
  return typeof target === 'string' && target.endsWith('.json') && target !== './package.json';
}

/** Entry points whose imports need an optional peer: checked in a second application that installs it. */
const NEEDS_OPTIONAL_PEERS: Record<string, string[]> = {
  '@interlude/bus/testing': ['vitest@4.1.12'],
  '@interlude/bus/postgres': ['pg@8.23.1', '@types/pg@8.23.1'],
  '@interlude/telemetry/testing': ['@opentelemetry/api@1.9.1', '@opentelemetry/sdk-trace-base@2.12.1'],
};

const runFile = promisify(execFile);

const TOOLCHAIN = ['typescript@5.9.3', '@types/node@20.19.43'];

interface PackedManifest {
  name: string;
  license?: string;
  description?: string;
  engines?: Record<string, string>;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let scratch: string;
let packed: Record<string, PackedPackage>;
let manifests: Record<string, PackedManifest>;
let application: ConsumerProject;
let testSuite: ConsumerProject;
/** A NATS application: the core and bus tarballs and zod, nothing else, installed with npm's warnings kept. */
let natsApplication: ConsumerProject;
/**
 * The two strict compiles, each run once its project is installed, under the preparation's one
 * bound: CPU-bound, they took longer than a test's own bound on a loaded machine, though nothing
 * hung.
 */
let applicationCompiled: { exitCode: number; output: string };
let testSuiteCompiled: { exitCode: number; output: string };

/** `import * as` every entry point in `specifiers`, and print how many names each exports. */
function importEveryEntryPoint(specifiers: string[]): string {
  const lines = specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`);
  const table = specifiers.map((specifier, index) => `  ['${specifier}', Object.keys(entry${index}).length],`);
  return `${lines.join('\n')}\n\nconst exported: [string, number][] = [\n${table.join('\n')}\n];\nfor (const [specifier, count] of exported) console.log(specifier, count);\n`;
}

function entryPoints(manifest: PackedManifest): string[] {
  return Object.keys(manifest.exports)
    .filter((subpath) => subpath !== './package.json' && !isDataExport(manifest.exports[subpath]))
    .map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`));
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'interlude-consumer-'));
  packed = await packWorkspace(scratch);
  manifests = {};
  for (const name of PUBLISHED_PACKAGES) {
    const tarball = packed[name]?.tarball as string;
    manifests[name] = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  }
  const tarballs = PUBLISHED_PACKAGES.map((name) => packed[name]?.tarball as string);
  const specifiers = PUBLISHED_PACKAGES.flatMap((name) => entryPoints(manifests[name] as PackedManifest));
  const example = (file: string) => readFileSync(join(WORKSPACE_ROOT, 'examples', file), 'utf8');
  // Each project compiles as soon as its own install is done, beside the installs still running,
  // not after all three.
  const installAndCompile = async (
    directory: string,
    specifiersToInstall: string[],
    sources: Record<string, string>,
  ): Promise<[ConsumerProject, { exitCode: number; output: string }]> => {
    const project = await installConsumer(join(scratch, directory), specifiersToInstall);
    for (const [file, text] of Object.entries(sources)) await project.write(file, text);
    return [project, await project.compile()];
  };
  [[application, applicationCompiled], [testSuite, testSuiteCompiled], natsApplication] = await Promise.all([
    // A user who already runs @opentelemetry/api 1.10.0 adds every package: must not fail with ERESOLVE.
    installAndCompile('application', [...tarballs, 'zod@4.6.7', '@opentelemetry/api@1.10.0', ...TOOLCHAIN], {
      'readme-example.ts': example('refund-approval.ts'),
      'worker-agents.ts': example('worker-agents.ts'),
      'every-entry-point.ts': importEveryEntryPoint(
        specifiers.filter((specifier) => !(specifier in NEEDS_OPTIONAL_PEERS)),
      ),
    }),
    installAndCompile(
      'test-suite',
      [
        ...tarballs,
        'zod@4.6.7',
        ...Object.values(NEEDS_OPTIONAL_PEERS).flat(),
        // The worker bin below exports metrics, so it runs here, where the metrics SDK (optional peers of the bus) is.
        ...METRICS_SDK,
        // …and traces (the @interlude/telemetry tarball is in `tarballs` already).
        ...TRACES_SDK.filter((name) => !name.startsWith('@interlude/')),
        ...TOOLCHAIN,
      ],
      {
        'worker-agents.ts': example('worker-agents.ts'),
        'testing-entry-points.ts': importEveryEntryPoint(Object.keys(NEEDS_OPTIONAL_PEERS)),
      },
    ),
    installConsumer(
      join(scratch, 'nats-application'),
      [packed['core']?.tarball as string, packed['bus']?.tarball as string, 'zod@4.6.7'],
      { logLevel: 'warn' },
    ),
  ]);
}, 300_000);

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  it.each(PUBLISHED_PACKAGES)(
    '@interlude/%s holds its built entry points, README and LICENSE, and nothing else',
    async (name) => {
      const entries = await tarballEntries(packed[name]?.tarball as string);
      const manifest = manifests[name] as PackedManifest;
      const expected = ['package.json', 'README.md', 'LICENSE', ...(OTHER_SHIPPED_FILES[name] ?? [])];
      const outside = entries.filter((entry) => !expected.includes(entry) && !entry.startsWith('dist/'));
      expect(outside).toEqual([]);
      expect(entries).toEqual(expect.arrayContaining(expected));
      expect(
        entries.filter(
          (entry) => /\.test\.|__fixtures__|test-support|\.tsbuildinfo$|\.ts$/.test(entry) && !entry.endsWith('.d.ts'),
        ),
      ).toEqual([]);
      const installed = join(application.directory, 'node_modules', manifest.name);
      const reached = reachableFiles({ directory: installed, entryPoints: entryTargets(manifest) });
      // A file no export reaches is a test helper the build picked up: exclude it in tsconfig.build.json.
      expect(entries.filter((entry) => entry.startsWith('dist/') && !reached.has(entry))).toEqual([]);
      expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toBe(
        readFileSync(join(WORKSPACE_ROOT, 'LICENSE'), 'utf8'),
      );
    },
  );

  it.each(PUBLISHED_PACKAGES)(
    '@interlude/%s says what it is and maps every entry point to ESM and declarations',
    (name) => {
      const manifest = manifests[name] as PackedManifest;
      expect(manifest.license).toBe('MIT');
      expect(manifest.description?.length).toBeGreaterThan(20);
      expect(manifest.engines?.['node']).toBe('>=20.19');
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        if (subpath === './package.json') continue;
        if (isDataExport(target)) {
          expect(OTHER_SHIPPED_FILES[name], subpath).toContain(target.slice(2));
          continue;
        }
        expect(target, subpath).toEqual({
          types: expect.stringMatching(/^\.\/dist\/.+\.d\.ts$/),
          import: expect.stringMatching(/^\.\/dist\/.+\.js$/),
        });
      }
      const ranges = JSON.stringify([manifest.dependencies, manifest.peerDependencies]);
      expect(ranges).not.toContain('workspace:');
      if (name !== 'core') expect(manifest.peerDependencies?.['@interlude/core']).toBe('^0.1.0');
    },
  );
});

describe('an application that installed the tarballs with npm', () => {
  it('keeps the @opentelemetry/api it brought (1.10.0) beside @interlude/telemetry', () => {
    const api = JSON.parse(
      readFileSync(join(application.directory, 'node_modules/@opentelemetry/api/package.json'), 'utf8'),
    );
    expect(api.version).toBe('1.10.0');
  });

  it('has one copy of @opentelemetry/api, the one @anthropic-ai/sdk traces through too', () => {
    expect(copiesOf(application.directory, '@opentelemetry/api')).toEqual(['node_modules/@opentelemetry/api']);
  });

  it('type-checks the README example and every entry point under strict, exactOptionalPropertyTypes, noPropertyAccessFromIndexSignature and skipLibCheck: false', () => {
    const { output } = applicationCompiled;
    const errors = compilerErrors(output);
    expect(errors.length === 0 ? output.trim() : '', 'tsc printed something that is not an error line').toBe('');
    // Ours (node_modules/@interlude, src/) must be clean; what is left is upstream's, listed.
    expect(errors.filter((error) => !isUpstreamDeclarationError(error))).toEqual([]);
    const stale = UPSTREAM_DECLARATION_ERRORS.filter(
      (known) =>
        !errors.some(
          (error) => error.file === known.file && error.code === known.code && error.message === known.message,
        ),
    );
    expect(
      stale,
      'an upstream declaration error no longer shows: remove it from declaration-errors.ts and the README',
    ).toEqual([]);
    for (const { upstream, file } of UPSTREAM_DECLARATION_ERRORS) {
      const installed = JSON.parse(
        readFileSync(join(application.directory, 'node_modules', upstream.name, 'package.json'), 'utf8'),
      );
      expect(installed.version, `${file} was read in ${upstream.name} ${upstream.version}: check its error again`).toBe(
        upstream.version,
      );
    }
  });

  it('imports every entry point with plain node', async () => {
    const { stdout } = await application.node('every-entry-point');
    const counts = stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    expect(counts.length).toBe(
      PUBLISHED_PACKAGES.flatMap((name) => entryPoints(manifests[name] as PackedManifest)).length -
        Object.keys(NEEDS_OPTIONAL_PEERS).length,
    );
    for (const [specifier, count] of counts) expect(Number(count), specifier).toBeGreaterThan(0);
  });

  it('imports the wire contract with plain node, as JSON: an AsyncAPI 3.0 document', async () => {
    const { stdout } = await runFile(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import contract from '@interlude/bus/asyncapi.json' with { type: 'json' }; console.log(contract.asyncapi, Object.keys(contract.channels).length > 0);",
      ],
      { cwd: application.directory },
    );
    expect(stdout.trim()).toBe('3.0.0 true');
  });

  it('runs the README example with plain node: it pauses on the refund, resumes from the JSON checkpoint, and refunds once', async () => {
    const server = await createWireServer();
    try {
      queueRefundReplies(server);
      const { stdout } = await application.node('readme-example', {
        ANTHROPIC_API_KEY: 'sk-ant-example',
        ANTHROPIC_BASE_URL: server.url,
      });
      expect(stdout).toBe('Refund $30 on order 42?\nI refunded $30 on order 42. [ { orderId: 42, amount: 30 } ]\n');
      expect(server.requests.length).toBe(2);
      const resumed = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
      expect(resumed.messages.at(-1)).toEqual({
        role: 'user',
        content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_refund' })],
      });
    } finally {
      await server.close();
    }
  });
});

describe('the interlude-worker bin installed from the tarball', () => {
  it('runs with plain node on the example module: a job pauses and resumes, /readyz answers, metrics reach the OTLP receiver, and SIGTERM exits 0 within 10 s', async () => {
    // dist/worker-agents.js, compiled beside the metrics SDK.
    const server = await createWireServer();
    const receiver = await startOtlpReceiver();
    // A deployment of its own on the run's NATS (a prefix): what other tests leave there, sealed with
    // keys this worker does not hold, is not its to list, and its stderr is checked empty below.
    const prefix = `tarball_${process.pid}`;
    const runtime = createRuntime({ bus: natsBus({ servers: inject('natsUrl'), prefix, onError: () => undefined }) });
    const worker = watchChild(
      // As documented: the bin itself, not npx, which exits on SIGTERM and leaves the worker running.
      spawn(join(testSuite.directory, 'node_modules/.bin/interlude-worker'), ['dist/worker-agents.js'], {
        cwd: testSuite.directory,
        env: {
          PATH: process.env['PATH'] ?? '',
          HOME: process.env['HOME'] ?? '',
          NATS_URL: inject('natsUrl'),
          INTERLUDE_CHECKPOINT_KEY: process.env['INTERLUDE_CHECKPOINT_KEY'] ?? '',
          INTERLUDE_PREFIX: prefix,
          INTERLUDE_QUEUE: `tarball-${process.pid}`,
          INTERLUDE_HEALTH_PORT: '0',
          ANTHROPIC_API_KEY: 'sk-ant-example',
          ANTHROPIC_BASE_URL: server.url,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_METRIC_EXPORT_INTERVAL: '250',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      'interlude-worker',
    );
    try {
      queueRefundReplies(server);
      const healthLine = await worker.waitForLine(/^interlude-worker: health on /, 30_000);
      const health = /on (http:\/\/[^/\s]+)\//.exec(healthLine)?.[1] as string;
      await worker.waitForLine(/^interlude-worker: ready: queue tarball-/, 30_000);
      expect(await probe(`${health}/readyz`)).toEqual({ status: 200, body: { status: 'ready' } });

      // The same module defines the same agent here, to queue its jobs.
      const [support] = await exampleAgents(runtime);
      const { generationId } = await (support as AgentBase)
        .generation('handle', { ticketId: 42 })
        .generateLater({ queue: `tarball-${process.pid}` });
      const last = async () => (await runtime.bus.events(generationId)).at(-1)?.event;
      await waitUntil(async () => (await last()) === 'input_requested', 'the pause', { timeoutMs: 20_000 });
      await runtime.answerLater(generationId, { toolu_refund: true }, { queue: `tarball-${process.pid}` });
      await waitUntil(async () => (await last()) === 'completed', 'the resume', { timeoutMs: 20_000 });
      expect(worker.lines).toContain('refunded $30 on order 42');
      await receiver.waitForMetric(
        (point) =>
          point.name === WORKER_METRICS.jobDuration &&
          point.attributes['interlude.job.outcome'] === 'completed' &&
          point.count === 1 &&
          point.resource['service.name'] === 'interlude-worker',
      );

      worker.process.kill('SIGTERM');
      const exit = await Promise.race([
        worker.exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000)),
      ]);
      expect(exit).toBe(0);
      expect(worker.errors()).toBe('');
    } finally {
      await worker.stop('SIGKILL');
      await runtime.close();
      await receiver.close();
      await server.close();
    }
  }, 90_000);
});

describe('a test suite that installed the optional peers of the testing entry points', () => {
  it('type-checks and imports them under the same strict options', async () => {
    const specifiers = Object.keys(NEEDS_OPTIONAL_PEERS);
    const { output } = testSuiteCompiled;
    expect(compilerErrors(output).filter((error) => !isUpstreamDeclarationError(error))).toEqual([]);
    const { stdout } = await testSuite.node('testing-entry-points');
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]),
    ).toEqual(specifiers);
  }, 120_000);

  it('has one copy of @opentelemetry/api beside the OpenTelemetry SDK', () => {
    expect(copiesOf(testSuite.directory, '@opentelemetry/api')).toEqual(['node_modules/@opentelemetry/api']);
  });

  it('names only entry points that exist', () => {
    const all = PUBLISHED_PACKAGES.flatMap((name) => entryPoints(manifests[name] as PackedManifest));
    expect(all).toEqual(expect.arrayContaining(Object.keys(NEEDS_OPTIONAL_PEERS)));
  });
});

describe('a core + bus application on NATS that installed only those two tarballs and zod', () => {
  it('installed neither pg nor an OpenTelemetry SDK: of OpenTelemetry, only the API', () => {
    const modules = join(natsApplication.directory, 'node_modules');
    expect(existsSync(join(modules, 'pg'))).toBe(false);
    expect(existsSync(join(modules, '@types/pg'))).toBe(false);
    expect(readdirSync(join(modules, '@opentelemetry'))).toEqual(['api']);
  });

  it(`printed no engine warning on this Node (${process.version})`, () => {
    expect(natsApplication.installLog).not.toContain('EBADENGINE');
  });

  it('runs with plain node against NATS: a runtime on natsBus() reads an event log and closes', async () => {
    await mkdir(join(natsApplication.directory, 'dist'), { recursive: true });
    await writeFile(
      join(natsApplication.directory, 'dist/nats-app.js'),
      [
        "import { natsBus } from '@interlude/bus';",
        "import { createRuntime } from '@interlude/core';",
        'const runtime = createRuntime({ bus: natsBus({ servers: process.env.NATS_URL }) });',
        "const events = await runtime.bus.events('gen_00000000000000000000000000000000');",
        'await runtime.close();',
        "console.log('events', events.length);",
        '',
      ].join('\n'),
    );
    const { stdout } = await natsApplication.node('nats-app', {
      NATS_URL: inject('natsUrl'),
      INTERLUDE_CHECKPOINT_KEY: process.env['INTERLUDE_CHECKPOINT_KEY'] ?? '',
    });
    expect(stdout).toBe('events 0\n');
  });

  it('has a worker bin that, told to export metrics without the SDK, refuses to start and names what to install', () => {
    const bin = join(natsApplication.directory, 'node_modules/@interlude/bus/dist/worker-process/bin.js');
    const failure = (() => {
      try {
        execFileSync(process.execPath, [bin, 'agents.js'], {
          cwd: natsApplication.directory,
          encoding: 'utf8',
          stdio: 'pipe',
          env: {
            PATH: process.env['PATH'] ?? '',
            NATS_URL: inject('natsUrl'),
            INTERLUDE_CHECKPOINT_KEY: process.env['INTERLUDE_CHECKPOINT_KEY'] ?? '',
            OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
          },
        });
        return { code: 0, stderr: '' };
      } catch (error) {
        const failed = error as { status?: number; stderr?: string };
        return { code: failed.status, stderr: failed.stderr ?? '' };
      }
    })();
    expect(failure.code).toBe(1);
    for (const pkg of METRICS_SDK) expect(failure.stderr).toContain(pkg);
  });
});

/**
 * Where npm installed a package under `directory`, however deep: two copies of
 * `@opentelemetry/api` keep two globals, and spans started through one never reach a provider
 * registered through the other.
 */
function copiesOf(directory: string, name: string): string[] {
  const found: string[] = [];
  const walk = (modules: string): void => {
    if (!existsSync(join(directory, modules))) return;
    if (existsSync(join(directory, modules, name, 'package.json'))) found.push(join(modules, name));
    for (const entry of readdirSync(join(directory, modules))) {
      const scoped = entry.startsWith('@')
        ? readdirSync(join(directory, modules, entry)).map((n) => `${entry}/${n}`)
        : [entry];
      for (const pkg of scoped) walk(join(modules, pkg, 'node_modules'));
    }
  };
  walk('node_modules');
  return found;
}

/** The Anthropic answers of the refund: first the refund call, then the reply once it ran. */
function queueRefundReplies(server: WireServer): void {
  const toolUse = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    stop_reason: 'tool_use',
    usage: { input_tokens: 20, output_tokens: 10 },
    content: [{ type: 'tool_use', id: 'toolu_refund', name: 'issue_refund', input: { order_id: 42, amount: 30 } }],
  };
  const answer = {
    ...toolUse,
    id: 'msg_2',
    stop_reason: 'end_turn',
    content: [{ type: 'text', text: 'I refunded $30 on order 42.' }],
  };
  const streamed = (message: unknown) => (request: { body: unknown }) =>
    anthropicReply(message as Record<string, unknown>, {
      stream: (request.body as { stream?: boolean }).stream === true,
    });
  server.enqueue('/v1/messages', streamed(toolUse), streamed(answer));
}
