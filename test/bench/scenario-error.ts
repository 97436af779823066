/**
 * A scenario gave a wrong result (a tool ran twice, a result is missing). The only reason the
 * benchmark command exits non-zero: a slow run is reported, never failed.
 */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

/** Throws a `ScenarioError` with `message` unless `condition` holds. */
export function expectScenario(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ScenarioError(message);
}
