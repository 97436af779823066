import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/bench/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // The suite is one deployment: every process it starts (workers, resumers, the demo) signs and
    // checks with this key, as a deployment's processes share INTERLUDE_CHECKPOINT_KEY.
    env: { INTERLUDE_CHECKPOINT_KEY: 'interlude-test-suite-checkpoint-key' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
