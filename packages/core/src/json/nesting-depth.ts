/**
 * How deep a checkpoint, a job or an answer may nest. Real ones stay in the tens (a provider's
 * message inside a conversation inside a checkpoint); serialising, cloning and validating a value
 * are recursive, and a value nested tens of thousands deep overflows the stack in any of them.
 */
export const MAX_NESTING_DEPTH = 512;

/**
 * Whether a JSON-like value nests deeper than `limit` arrays and objects. Iterative, so it
 * answers for any depth without touching the stack: it runs before anything recursive does.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const current = pending.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (let index = 0; index < children.length; index += 1) {
      const child = children[index];
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
