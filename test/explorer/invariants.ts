import { attributeRow, type Invariant, isTolerated, type KnownRow, type Row } from './known-failures.js';

/** One broken invariant: which, for which generation, why, and the row of issue 27 it shows. */
export interface Violation {
  invariant: Invariant;
  row: Row;
  generation: string;
  detail: string;
}

/** Collects the violations of one schedule, attributing each to a row by the generation's faults. */
export function createViolationLog(causesOf: (generationId: string) => Iterable<KnownRow>) {
  const violations: Violation[] = [];
  return {
    violations,
    add(invariant: Invariant, generation: string, detail: string, detected?: KnownRow): void {
      violations.push({ invariant, row: attributeRow(invariant, causesOf(generation), detected), generation, detail });
    },
  };
}

/** The violations no known-failure row tolerates: these fail the run. */
export function untolerated(violations: readonly Violation[]): Violation[] {
  return violations.filter((violation) => !isTolerated(violation.row));
}

/** `row: count` for a summary line. */
export function countByRow(violations: readonly Violation[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const violation of violations) counts[violation.row] = (counts[violation.row] ?? 0) + 1;
  return counts;
}
