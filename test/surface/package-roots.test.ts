import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../docs/repository-files.js';

/**
 * Every name each package root exports, `(type)` after a type-only one. A new export, or one
 * removed, is a change to the public surface: make it here on purpose, and document the name in
 * the package's README. What only Interlude's own packages need goes to `@interlude/core/internal`.
 */
const ROOT_EXPORTS: Record<string, string[]> = {
  core: [
    'ActionFunction (type)',
    'Agent (type)',
    'ApprovalRule (type)',
    'AskedInputRequest (type)',
    'AskedInputRequestJSON (type)',
    'Bus (type)',
    'Checkpoint (type)',
    'ChoiceOption (type)',
    'ContextBinding (type)',
    'ContextGeneration (type)',
    'ContextMessage (type)',
    'ContextStore (type)',
    'DelegateOptions (type)',
    'EventFilter (type)',
    'EventName (type)',
    'Generation (type)',
    'GenerationEvent (type)',
    'GenerationResponse (type)',
    'GenerationStream (type)',
    'InputRequest',
    'InputRequestJSON (type)',
    'InputRequestKind (type)',
    'InputRequestOptions (type)',
    'InputRequiredError',
    'InterludeError',
    'JsonValue (type)',
    'PendingGeneration (type)',
    'ProviderAdapter (type)',
    'ProviderError',
    'ResumeError',
    'ResumeInput (type)',
    'RunControl (type)',
    'Runtime (type)',
    'RuntimeOptions (type)',
    'ScrubbedError',
    'StreamPart (type)',
    'Subscription (type)',
    'Tool (type)',
    'ToolContext (type)',
    'Toolset (type)',
    'TrustError',
    'createRuntime',
    'defineAgent',
    'delegate',
    'hasContext',
    'idempotencyKeyOf',
    'memoryContextStore',
    'rebuildCheckpoint',
    'tool',
  ],
  bus: [
    'AesGcmCodecOptions (type)',
    'AgentsFactory (type)',
    'BusConnectionError',
    'BusConnectionErrorCode (type)',
    'BusUnavailableError',
    'EventsExpiredError',
    'MemoryBusOptions (type)',
    'NatsBusOptions (type)',
    'NatsNames (type)',
    'PayloadCodec (type)',
    'PayloadCodecError',
    'PayloadCodecErrorCode (type)',
    'SealedPayload (type)',
    'StreamConfigError',
    'StreamDifference (type)',
    'WORKER_METRICS',
    'Worker (type)',
    'WorkerOptions (type)',
    'WorkerStopOptions (type)',
    'aesGcmCodec',
    'createWorker',
    'credsAuthenticator',
    'memoryBus',
    'natsBus',
    'natsNames',
    'natsRoles',
    'nkeyAuthenticator',
    'payloadKeyIdOf',
  ],
  telemetry: [
    'OpenTelemetryOptions (type)',
    'OpenTelemetryTelemetry (type)',
    'QuestionsWaiting (type)',
    'observeQuestionsWaiting',
    'openTelemetry',
    'openinference',
    'secretScrubbingProcessor',
    'semconv',
  ],
  gateway: [
    'Gateway (type)',
    'GatewayKey (type)',
    'GatewayOptions (type)',
    'GatewayScope (type)',
    'RateLimit (type)',
    'createGateway',
    'parseGatewayKeys',
  ],
};

/** The most names `@interlude/core`'s root may export: what users write with, and nothing else. */
const CORE_ROOT_LIMIT = 50;

/** The names a root module exports, read from its source: it re-exports by name, never `export *`. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) {
      const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
      if (modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) {
        throw new Error(`${file}: declare in a module of its own and re-export it by name`);
      }
      continue;
    }
    const clause = statement.exportClause;
    if (clause === undefined) throw new Error(`${file}: \`export *\` hides what is exported: name each export`);
    if (ts.isNamespaceExport(clause)) {
      names.push(clause.name.text);
      continue;
    }
    for (const element of clause.elements) {
      names.push(`${element.name.text}${statement.isTypeOnly || element.isTypeOnly ? ' (type)' : ''}`);
    }
  }
  return names.sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
}

function rootFile(name: string): string {
  const manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'packages', name, 'package.json'), 'utf8'));
  return join(REPOSITORY_ROOT, 'packages', name, manifest.exports['.']);
}

describe('each package root', () => {
  it.each(Object.keys(ROOT_EXPORTS))('@interlude/%s exports exactly the names listed here', async (name) => {
    const names = exportedNames(rootFile(name));
    expect(names).toEqual(ROOT_EXPORTS[name]);
    // What the module really exports at run time: its values, as read from the source.
    const loaded = await import(`@interlude/${name}`);
    expect(Object.keys(loaded).sort()).toEqual(names.filter((entry) => !entry.endsWith(' (type)')).sort());
  });

  it(`@interlude/core's root exports at most ${CORE_ROOT_LIMIT} names`, () => {
    expect(exportedNames(rootFile('core')).length).toBeLessThanOrEqual(CORE_ROOT_LIMIT);
  });

  it('@interlude/providers has no root: each provider is its own entry point', () => {
    const manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'packages/providers/package.json'), 'utf8'));
    expect(manifest.exports['.']).toBeUndefined();
  });
});
