/**
 * `pnpm bench:compare <checkout>`: benchmark 1's Interlude variants of another checkout (an
 * earlier commit, with its dependencies installed) and of this one, in one process, cycle by
 * cycle with the bare loop, so two versions are compared under the same load at the same moment.
 * Separate `pnpm bench` runs move by ±30 % on a shared machine; this does not.
 *
 *   git worktree add ../before <commit> && (cd ../before && pnpm install --offline)
 *   pnpm bench:compare ../before
 *
 * Each checkout's `cycle-variants.ts` imports its own packages. Two caveats: both versions share
 * the process's AsyncLocalStorage hooks (an always-on storage in one slows the other's promises),
 * and its garbage collector.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBenchNatsServer } from './bench-nats-server.js';
import { bareSdkVariant, type CycleVariant, interludeMemoryVariant, interludeNatsVariant } from './cycle-variants.js';
import { sampleInterleaved } from './interleaved-cycles.js';
import { summarize } from './statistics.js';
import { startWireServerProcess } from './wire-server-process.js';

type Variants = Pick<typeof import('./cycle-variants.js'), 'interludeMemoryVariant' | 'interludeNatsVariant'>;

// One deployment's key for this process and the workers it starts (a runtime on NATS needs one).
process.env['INTERLUDE_CHECKPOINT_KEY'] ??= 'interlude-bench-checkpoint-key';
const other = process.argv[2];
if (other === undefined) {
  console.error('usage: pnpm bench:compare <path to another checkout, dependencies installed>');
  process.exit(2);
}
// Relative to where the command was typed (pnpm runs the script from test/ and says where in INIT_CWD).
const otherRoot = path.resolve(process.env['INIT_CWD'] ?? process.cwd(), other);
const otherVariantsFile = path.join(otherRoot, 'test/bench/cycle-variants.ts');
if (!existsSync(otherVariantsFile)) {
  console.error(`no test/bench/cycle-variants.ts under ${otherRoot}`);
  process.exit(2);
}
const before = (await import(pathToFileURL(otherVariantsFile).href)) as Variants;
const cycles = Number(process.env['BENCH_CYCLES'] ?? 600);

const wire = await startWireServerProcess();
const nats = await startBenchNatsServer();
const named: [string, CycleVariant][] = [
  ['bare openai SDK loop', bareSdkVariant(wire.baseURL)],
  ['memory bus, other', before.interludeMemoryVariant(wire.baseURL)],
  ['memory bus, this', interludeMemoryVariant(wire.baseURL)],
  ['NATS + OTel, other', before.interludeNatsVariant(wire.baseURL, nats.url)],
  ['NATS + OTel, this', interludeNatsVariant(wire.baseURL, nats.url)],
];
let samples: number[][];
try {
  // Each variant checks its own result and throws on a wrong one, as in `pnpm bench`.
  samples = await sampleInterleaved(
    named.map(([, variant]) => variant),
    { warmup: 60, cycles },
  );
} finally {
  await nats.stop();
  await wire.stop();
}
const variants = named.map(([name], position) => ({ name, samples: samples[position] ?? [] }));

const bare = summarize(variants[0]?.samples ?? []).median;
console.log(
  `${cycles} cycles each, interleaved; other: ${otherRoot}, this: ${path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')}`,
);
for (const variant of variants) {
  const median = summarize(variant.samples).median;
  console.log(`${variant.name.padEnd(22)} ${median.toFixed(3).padStart(7)} ms  ${(median / bare).toFixed(2)}×`);
}
process.exit(0);
