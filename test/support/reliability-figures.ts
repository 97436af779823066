import { appendFileSync } from 'node:fs';

/**
 * Appends one measured figure of the reliability suite (a JSON line) to the file named by
 * `INTERLUDE_RELIABILITY_FIGURES`, when set, so the README table is filled from a real run.
 * Without it the figure is only printed: the suite leaves no files behind by default.
 */
export function recordFigure(name: string, figure: Record<string, unknown>): void {
  const line = JSON.stringify({ name, ...figure });
  console.log(`[reliability] ${line}`);
  const file = process.env['INTERLUDE_RELIABILITY_FIGURES'];
  if (file !== undefined && file !== '') appendFileSync(file, `${line}\n`);
}
