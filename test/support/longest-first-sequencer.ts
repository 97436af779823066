import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * How long the slowest files take, in seconds, as test/README.md measured them: what a run with no
 * timings of its own yet (a fresh clone, CI) orders its files by. vitest keeps each file's last
 * duration in its cache and uses that once it has one.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'test/package/install-from-tarballs.test.ts': 90,
  'test/reliability/cluster-ops.test.ts': 40,
  'test/demo/demo-cli.test.ts': 35,
  'test/demo/demo-page.test.ts': 30,
  'test/worker-process/worker-bin-configuration.test.ts': 20,
  'test/demo/demo-terminal.test.ts': 20,
  'test/demo/demo-waiting.test.ts': 20,
  'test/explorer/memory-explorer.test.ts': 18,
  'test/bus/cross-process-resume.test.ts': 16,
  'test/examples/several-processes.test.ts': 15,
  'test/reliability/checkpoint-leader-failover.test.ts': 15,
  'test/worker-process/embedded-shutdown.test.ts': 15,
  'packages/bus/src/nats-bus.test.ts': 14,
  'test/demo/demo-nats.test.ts': 13,
  'test/explorer/memory-explorer-more.test.ts': 12,
  'test/mcp/mcp-stdio.test.ts': 12,
  'test/demo/demo-page-layout.test.ts': 11,
};

/**
 * Starts the longest files of each tier first, so two files at a time end together instead of one
 * worker finishing the tier alone with the slowest file it picked up last. vitest's own order does
 * the same from its cache of durations, and by file size where it has none, which put small, slow
 * files (the demo's) last in a fresh clone.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (file: TestSpecification): number => {
      const path = relative(this.ctx.config.root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`)?.duration;
      return cached === undefined ? (MEASURED_SECONDS[path] ?? 0) : cached / 1000;
    };
    // Within a tier only: the tiers keep vitest's order (fast, servers, soak), one after the other.
    const tiers = new Map<string, TestSpecification[]>();
    for (const file of ordered) tiers.set(file.project.name, [...(tiers.get(file.project.name) ?? []), file]);
    // Array.prototype.sort is stable: files of no known duration keep vitest's order.
    return [...tiers.values()].flatMap((tier) => tier.sort((left, right) => seconds(right) - seconds(left)));
  }
}
