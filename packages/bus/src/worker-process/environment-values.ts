import { accessSync, constants, readFileSync } from 'node:fs';

/** The variables of a process, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Reads settings from an environment and collects what is wrong with them, so a bad configuration
 * is reported whole, every variable at once, instead of one failure per restart.
 */
export class SettingsReader {
  readonly problems: string[] = [];

  constructor(private readonly environment: Environment) {}

  /** The variable's value, trimmed; undefined when unset or blank. */
  text(name: string): string | undefined {
    const value = this.environment[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  /** An integer from `min` to `max`; `fallback` when unset. */
  integer(name: string, fallback: number, min: number, max: number, why = ''): number {
    const value = this.text(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problem(name, `must be a whole number from ${min} to ${max}${why}, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return Number(value);
  }

  /** A path to a file this process can read, or undefined (and a problem) when it cannot. */
  readableFile(name: string): string | undefined {
    const path = this.text(name);
    if (path === undefined) return undefined;
    try {
      accessSync(path, constants.R_OK);
      return path;
    } catch (error) {
      this.problem(name, `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      return undefined;
    }
  }

  /** The text of a readable file named by the variable. */
  fileText(name: string): { path: string; text: string } | undefined {
    const path = this.readableFile(name);
    return path === undefined ? undefined : { path, text: readFileSync(path, 'utf8') };
  }

  problem(name: string, message: string): void {
    this.problems.push(`${name}: ${message}`);
  }
}

/** What the bin says, and exits 2 for, when its configuration is wrong: every problem, one a line. */
export class SettingsError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`bad configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}
