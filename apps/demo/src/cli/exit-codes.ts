/** What the terminal client exits with, by how it ended. */
export interface ExitCodes {
  /** A command it does not know, or the wrong number of arguments. */
  usage: number;
  /** Ctrl-C before a command finished (`tail` stops on Ctrl-C by design: that is 0). */
  interrupted: number;
}

/**
 * The client's exit codes. Started by the demo's own `cli` script (`pnpm --filter @interlude/demo
 * cli …`, which sets `npm_lifecycle_event=cli`), a usage error or a Ctrl-C ends with 0: both are
 * the person's own doing, the client has already said what happened, and pnpm follows any other
 * code with its own failure report (`ELIFECYCLE`, `ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL`) that buries
 * the usage line, and turns the code into 1 anyway. Run directly (`node --import tsx
 * src/cli.ts`), the usual codes, for scripts that check them: 2 for a usage error, 130 for Ctrl-C.
 * A failure (the desk unreachable, an answer refused) is 1 either way.
 */
export function exitCodes(environment: NodeJS.ProcessEnv = process.env): ExitCodes {
  const byOwnScript = environment['npm_lifecycle_event'] === 'cli';
  return { usage: byOwnScript ? 0 : 2, interrupted: byOwnScript ? 0 : 130 };
}
