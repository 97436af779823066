import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the summary names. */
const SLOWEST = 12;

/**
 * Prints, after every run, each tier's wall time (its first file's start to its last file's
 * end: the tiers run one after the other) and the slowest files with what they spent importing
 * and running. This is where a run's time went, read side by side with other runs on the same
 * machine; it is not a speed check (that is `npx -y pnpm@12.4.2 bench`).
 */
export default class SlowestFilesReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();

  onTestModuleStart(testModule: TestModule): void {
    this.started.set(testModule.moduleId, performance.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.ended.set(testModule.moduleId, performance.now());
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const tiers = new Map<string, { files: number; first: number; last: number }>();
    for (const testModule of testModules) {
      const start = this.started.get(testModule.moduleId);
      const end = this.ended.get(testModule.moduleId);
      if (start === undefined || end === undefined) continue;
      const name = testModule.project.name || '(root)';
      const tier = tiers.get(name) ?? { files: 0, first: start, last: end };
      tier.files += 1;
      tier.first = Math.min(tier.first, start);
      tier.last = Math.max(tier.last, end);
      tiers.set(name, tier);
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = ['', 'Where the time went (wall per tier; the slowest files: import + tests and hooks)'];
    for (const [name, tier] of [...tiers].sort(([, left], [, right]) => left.first - right.first))
      lines.push(`  ${name}: ${tier.files} files, ${seconds(tier.last - tier.first)}`);
    const slowest = [...testModules]
      .map((testModule) => ({ testModule, diagnostic: testModule.diagnostic() }))
      .sort((left, right) => total(right.diagnostic) - total(left.diagnostic))
      .slice(0, SLOWEST);
    for (const { testModule, diagnostic } of slowest) {
      lines.push(
        `  ${seconds(total(diagnostic)).padStart(8)}  ${testModule.project.name.padEnd(7)} ${testModule.relativeModuleId}` +
          ` (import ${seconds(diagnostic.collectDuration)})`,
      );
    }
    console.log(lines.join('\n'));
  }
}

function total(diagnostic: ReturnType<TestModule['diagnostic']>): number {
  return diagnostic.collectDuration + diagnostic.duration;
}
