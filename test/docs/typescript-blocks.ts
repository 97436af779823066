import { join } from 'node:path';
import ts from 'typescript';
import { REPOSITORY_ROOT, readRepositoryFile, repositoryFiles } from './repository-files.js';

/** The Markdown files whose TypeScript blocks must compile: the README, docs/ and each package's README. */
export const DOCUMENTS_WITH_CODE = ['README.md', 'docs/*.md', 'packages/*/README.md', 'apps/*/README.md'];

/**
 * The info string that marks a block as a fragment (```` ```ts fragment ````): an excerpt that leans
 * on names defined elsewhere, which cannot compile on its own. Every other ```` ```ts ```` block is a
 * whole module, with its imports.
 */
export const FRAGMENT_INFO = 'ts fragment';

export interface TypeScriptBlock {
  /** `docs/waiting.md:42`, the line of the opening fence. */
  where: string;
  code: string;
  fragment: boolean;
  /** The file name the block is compiled as, beside this module so it resolves the workspace packages. */
  fileName: string;
}

/** Every ```` ```ts ```` block (fragments included) of the documents. */
export function typescriptBlocks(): TypeScriptBlock[] {
  const blocks: TypeScriptBlock[] = [];
  for (const file of repositoryFiles(...DOCUMENTS_WITH_CODE)) {
    const markdown = readRepositoryFile(file);
    for (const match of markdown.matchAll(/^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```$/gm)) {
      const info = `ts${(match[2] ?? '').trimEnd()}`;
      if (info !== 'ts' && info !== FRAGMENT_INFO)
        throw new Error(`${file}: unknown info string "${match[0].split('\n')[0]}"`);
      const line = markdown.slice(0, match.index).split('\n').length;
      blocks.push({
        where: `${file}:${line}`,
        code: match[3] as string,
        fragment: info === FRAGMENT_INFO,
        fileName: join(REPOSITORY_ROOT, 'test/docs/.blocks', `${file.replaceAll('/', '_')}_${line}.ts`),
      });
    }
  }
  return blocks;
}

/**
 * Type-checks every block in one TypeScript program, each block a module of its own under
 * test/docs (so it imports the workspace packages as a user's app imports the installed ones, and
 * runs as an ES module with top-level await). The options are the repository's but two: a block is
 * checked as a user's `strict` app, so `process.env.NAME` reads as users write it
 * (`noPropertyAccessFromIndexSignature` off) and may hand an optional option a value that may be
 * undefined (`exactOptionalPropertyTypes` off). Returns each block's errors, formatted.
 */
export function compileBlocks(blocks: readonly TypeScriptBlock[]): Map<TypeScriptBlock, string[]> {
  const configFile = join(REPOSITORY_ROOT, 'test/tsconfig.json');
  const config = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, join(REPOSITORY_ROOT, 'test'));
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    noPropertyAccessFromIndexSignature: false,
    exactOptionalPropertyTypes: false,
  };
  const byName = new Map(blocks.map((block) => [block.fileName, block]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => byName.has(name) || fileExists.call(host, name);
  host.readFile = (name) => byName.get(name)?.code ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const block = byName.get(name);
    return block === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, block.code, language, true);
  };
  const program = ts.createProgram({ rootNames: [...byName.keys()], options, host });
  const errors = new Map<TypeScriptBlock, string[]>();
  for (const block of blocks) {
    const sourceFile = program.getSourceFile(block.fileName);
    const diagnostics = sourceFile
      ? [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]
      : [];
    errors.set(
      block,
      diagnostics.map((diagnostic) => {
        const position =
          diagnostic.file && diagnostic.start !== undefined
            ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
            : undefined;
        const at = position ? `block line ${position.line + 1}: ` : '';
        return `${at}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      }),
    );
  }
  return errors;
}
