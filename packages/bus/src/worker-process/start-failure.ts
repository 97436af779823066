import { AgentsModuleError } from './agents-module.js';
import { SettingsError } from './environment-values.js';

/**
 * How a bin of the deployment (`interlude-worker`, `interlude-gateway`) ends when it cannot start:
 * a bad configuration says every problem and exits 2; the module's own failure shows its stack,
 * anything else its message, and exits 1.
 */
export function exitForStartFailure(bin: string, error: unknown): never {
  const complain = (line: string) => console.error(`${bin}: ${line}`);
  if (error instanceof SettingsError) {
    complain(`${error.message}\nRun ${bin} --help for every setting.`);
    process.exit(2);
  }
  complain(
    error instanceof AgentsModuleError
      ? `${error.message}\n${String((error.cause as Error)?.stack ?? '')}`
      : `cannot start: ${(error as Error).message}`,
  );
  process.exit(1);
}
