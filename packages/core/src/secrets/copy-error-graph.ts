import { inspect } from 'node:util';
import { type ErrorGraphReading, printsItself } from './read-error-graph.js';
import type { Scrubber } from './scrub.js';
import { FILTERED } from './secret-matcher.js';

/** A copy of a thrown value with every secret replaced, and the copies it made of errors. */
export interface ErrorGraphCopy {
  readonly value: unknown;
  /** Each error copied, by the copy, with what could not be copied of it. */
  readonly errors: ReadonlyMap<Error, { original: Error; dropped: string[] }>;
}

/**
 * Copies what `reading` says holds a secret and keeps everything else as it is (the same
 * objects): an error keeps its prototype, so `instanceof` and its class's methods still work, and
 * every own property with its flags (`message` and `stack` stay non-enumerable, symbol keys stay),
 * each value copied the same way; a `Map` or `Set` keeps every entry; an own getter becomes the
 * value it gave. Cycles stay cycles. Iterative, so a cause chain of any length is copied whole.
 */
export function copyErrorGraph(root: unknown, reading: ErrorGraphReading, scrubber: Scrubber): ErrorGraphCopy {
  const copies = new Map<object, object>();
  const errors = new Map<Error, { original: Error; dropped: string[] }>();
  const pending: Array<[object, object]> = [];

  const copyOf = (value: unknown): unknown => {
    if (typeof value === 'string') return scrubber.text(value);
    if (typeof value === 'number' || typeof value === 'bigint') return scrubber.contains(value) ? FILTERED : value;
    if (typeof value === 'symbol') {
      const description = value.description ?? '';
      return scrubber.contains(description) ? Symbol(scrubber.text(description)) : value;
    }
    if (typeof value !== 'object' || value === null || !reading.holding.has(value)) return value;
    const known = copies.get(value);
    if (known !== undefined) return known;
    const whole = wholeCopyOf(value, scrubber);
    if (whole !== undefined) {
      copies.set(value, whole as object);
      return whole;
    }
    const shell = shellOf(value);
    copies.set(value, shell);
    if (shell instanceof Error) errors.set(shell, { original: value as Error, dropped: [] });
    pending.push([value, shell]);
    return shell;
  };

  const value = copyOf(root);
  while (pending.length > 0) {
    const [original, shell] = pending.pop() as [object, object];
    fill(original, shell, copyOf, errors.get(shell as Error)?.dropped);
    scrubRuns(shell, scrubber);
  }
  return { value, errors };
}

/**
 * What is copied whole rather than field by field: bytes and patterns in their written form; a
 * URL, `Headers` or `URLSearchParams` rebuilt from its scrubbed parts (their data sits in internal
 * slots a field-by-field copy cannot reach); any other object that prints itself, as the text it
 * prints, scrubbed. Undefined for everything else.
 */
function wholeCopyOf(value: object, scrubber: Scrubber): unknown {
  if (ArrayBuffer.isView(value)) return scrubber.value(value);
  if (value instanceof ArrayBuffer) return scrubber.value(new Uint8Array(value));
  if (value instanceof RegExp) return scrubber.text(String(value));
  if (!printsItself(value)) return undefined;
  const pairs = (entries: Iterable<[string, string]>) =>
    [...entries].map(([key, item]): [string, string] => [scrubber.text(key), scrubber.text(item)]);
  try {
    if (value instanceof URL) return new URL(scrubber.text(value.href));
    if (value instanceof URLSearchParams) return new URLSearchParams(pairs(value));
    if (typeof Headers === 'function' && value instanceof Headers) return new Headers(pairs(value));
  } catch {}
  return scrubber.text(inspect(value, { depth: 2 }));
}

/** An empty object to copy into, of the original's kind and prototype. */
function shellOf(value: object): object {
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (Array.isArray(value)) return Object.setPrototypeOf([], prototype);
  if (value instanceof Map) return Object.setPrototypeOf(new Map(), prototype);
  if (value instanceof Set) return Object.setPrototypeOf(new Set(), prototype);
  return Object.create(prototype);
}

function fill(original: object, shell: object, copyOf: (value: unknown) => unknown, dropped: string[] | undefined) {
  if (original instanceof Map) {
    for (const [key, item] of Map.prototype.entries.call(original))
      Map.prototype.set.call(shell, copyOf(key), copyOf(item));
  }
  if (original instanceof Set)
    for (const item of Set.prototype.values.call(original)) Set.prototype.add.call(shell, copyOf(item));
  for (const key of Reflect.ownKeys(original)) {
    if (Array.isArray(original) && key === 'length') continue;
    const descriptor = Reflect.getOwnPropertyDescriptor(original, key) as PropertyDescriptor;
    // An array's indices are positions, not text: a PIN `1` must not rename its second item.
    const copiedKey = Array.isArray(original) ? key : (copyOf(key) as string | symbol);
    if ('value' in descriptor) {
      Reflect.defineProperty(shell, copiedKey, { ...descriptor, value: copyOf(descriptor.value) });
      continue;
    }
    if (descriptor.get === undefined) continue;
    try {
      const value: unknown = descriptor.get.call(original);
      Reflect.defineProperty(shell, copiedKey, {
        value: copyOf(value),
        enumerable: descriptor.enumerable ?? false,
        writable: true,
        configurable: true,
      });
    } catch {
      dropped?.push(`${String(copiedKey)} (its getter threw)`);
    }
  }
}

/** Strings side by side in one object or array, scrubbed as one text, as `Scrubber.value` does. */
function scrubRuns(shell: object, scrubber: Scrubber): void {
  const keys = Reflect.ownKeys(shell).filter((key) => typeof key === 'string' && key !== 'length');
  const run = keys.map((key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(shell, key);
    return descriptor !== undefined && 'value' in descriptor && typeof descriptor.value === 'string'
      ? descriptor.value
      : null;
  });
  if (run.filter((item) => item !== null).length < 2) return;
  const scrubbed = scrubber.value(run);
  keys.forEach((key, index) => {
    if (scrubbed[index] !== run[index]) Reflect.defineProperty(shell, key, { value: scrubbed[index] });
  });
}
