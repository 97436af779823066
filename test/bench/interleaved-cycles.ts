import type { CycleVariant } from './cycle-variants.js';
import { roundOrder } from './round-order.js';
import { now } from './statistics.js';

/**
 * Runs each variant's cycle in turn `warmup + cycles` times, in a shuffled order each round
 * (A, C, B, B, A, C…: see `roundOrder`), so load on the machine and the garbage one variant
 * leaves the next hit all of them alike, and returns each one's cycle times in milliseconds after the
 * warm-up. Every variant is closed afterwards, even when one throws (a wrong result).
 * `aroundCycle` may do untimed work around a cycle (counting its NATS messages) and must call `timed`.
 */
export async function sampleInterleaved(
  variants: readonly CycleVariant[],
  { warmup, cycles }: { warmup: number; cycles: number },
  aroundCycle: (variant: CycleVariant, index: number, timed: () => Promise<void>) => Promise<void> = (
    _variant,
    _index,
    timed,
  ) => timed(),
): Promise<number[][]> {
  const samples = variants.map((): number[] => []);
  try {
    for (let index = 0; index < warmup + cycles; index += 1) {
      for (const position of roundOrder(variants.length, index)) {
        const variant = variants[position] as CycleVariant;
        await aroundCycle(variant, index, async () => {
          const started = now();
          await variant.cycle(index);
          if (index >= warmup) samples[position]?.push(now() - started);
        });
      }
    }
  } finally {
    for (const variant of variants) await variant.close();
  }
  return samples;
}
