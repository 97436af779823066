/** Summary of a set of durations (or any samples), in the samples' unit. */
export interface Summary {
  count: number;
  median: number;
  p95: number;
  p99: number;
  mean: number;
}

/** Nearest-rank percentile of sorted samples; `fraction` in (0, 1]. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((left, right) => left - right);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    mean: sorted.length === 0 ? Number.NaN : total / sorted.length,
  };
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Rounds for the table and results.json: ratios to 2 decimals, anything else to 3 significant places. */
export function round(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
