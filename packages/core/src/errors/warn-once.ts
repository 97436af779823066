/** The keys already warned about (bounded: what is warned about may be chosen by whoever writes to the bus). */
const warned = new Set<string>();
const MAX_REMEMBERED = 10_000;

/**
 * `console.warn('[interlude] ' + message)` the first time `key` is seen in this process, for what
 * is read again and again (a forged claim slot, a pause another key sealed, listed by a gauge every
 * few seconds) but should be said once. Returns whether it warned.
 */
export function warnOnce(key: string, message: string): boolean {
  if (warned.has(key)) return false;
  if (warned.size >= MAX_REMEMBERED) warned.clear();
  warned.add(key);
  console.warn(`[interlude] ${message}`);
  return true;
}
