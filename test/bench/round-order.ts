import { seededRandom } from '../support/reliability-wait.js';

/**
 * The order the variants run in during round `round`: a shuffle of `0 … count − 1`, the same for
 * the same round in every run. A fixed order (A, B, C, A, B, C…) made each variant always follow
 * the same one, and pay for its garbage: with the LangGraph.js peers last, the bare loop ran
 * first in every round and read slower than the XState floor built on its own steps (0.83–0.91×).
 * Shuffled, every variant follows every other about equally often.
 */
export function roundOrder(count: number, round: number): number[] {
  const order = Array.from({ length: count }, (_, position) => position);
  const random = seededRandom(round + 1);
  for (let last = count - 1; last > 0; last -= 1) {
    const pick = Math.floor(random() * (last + 1));
    [order[last], order[pick]] = [order[pick] as number, order[last] as number];
  }
  return order;
}
