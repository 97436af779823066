import { inspect } from 'node:util';
import type { Scrubber } from './scrub.js';

/**
 * The most objects one reading visits. An error of an HTTP client can carry its request, socket
 * and agent; past this many objects the reading stops and says it is incomplete, and the caller
 * treats what it could not read as holding a secret (it fails closed, never open).
 */
export const MAX_OBJECTS_READ = 20_000;

/** What reading a thrown value found: which objects hold a secret, themselves or below them. */
export interface ErrorGraphReading {
  /** Every object from which a secret is reachable (the objects that must be copied). */
  readonly holding: ReadonlySet<object>;
  /** Why each object that shows a secret by itself (not through another object) does. */
  readonly reasons: ReadonlyMap<object, readonly string[]>;
  /** False when the reading stopped at `MAX_OBJECTS_READ`. */
  readonly complete: boolean;
}

/**
 * Reads everything a thrown value shows, as `console.error`, `util.inspect`, `String()` and code
 * that reads its fields would: every own property, symbol-keyed and non-enumerable ones included
 * (their keys too), the values of own getters, `Map` and `Set` entries, and so `cause` chains and
 * `AggregateError#errors` at any depth; for an error also its `String()`, the getters its class
 * defines and a custom `util.inspect`. Iterative, with cycles read once, so no depth is left
 * unread. Functions are not read (nothing prints their bodies).
 */
export function readErrorGraph(root: unknown, scrubber: Scrubber): ErrorGraphReading {
  const edges = new Map<object, Set<object>>();
  const reasons = new Map<object, string[]>();
  const pending: object[] = [];
  const note = (node: object, reason: string) => {
    const list = reasons.get(node) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(node, list);
  };
  const consider = (node: object, value: unknown, where: string) => {
    if (typeof value === 'object' && value !== null) {
      (edges.get(node) as Set<object>).add(value);
      if (!edges.has(value)) {
        edges.set(value, new Set());
        pending.push(value);
      }
    } else if (typeof value === 'symbol') {
      if (scrubber.contains(value.description ?? '')) note(node, where);
    } else if (typeof value !== 'function' && scrubber.contains(value)) note(node, where);
  };
  const read = (node: object, where: string, value: () => unknown) => {
    try {
      consider(node, value(), where);
    } catch {
      // A getter or toString that throws shows nothing.
    }
  };

  if (typeof root !== 'object' || root === null) return { holding: new Set(), reasons, complete: true };
  edges.set(root, new Set());
  pending.push(root);
  let complete = true;
  for (let count = 0; pending.length > 0; count += 1) {
    if (count >= MAX_OBJECTS_READ) {
      complete = false;
      break;
    }
    const node = pending.pop() as object;
    if (ArrayBuffer.isView(node) || node instanceof ArrayBuffer) {
      if (scrubber.contains(node instanceof ArrayBuffer ? new Uint8Array(node) : node)) note(node, 'bytes');
      continue;
    }
    if (node instanceof RegExp) read(node, 'pattern', () => String(node));
    // A URL, `Headers` or `URLSearchParams` keeps its data in internal slots: no own property
    // shows it, but it prints it.
    if (printsItself(node)) read(node, 'how it prints', () => inspect(node, { depth: 2 }));
    if (node instanceof Map) {
      for (const [key, value] of Map.prototype.entries.call(node)) {
        consider(node, key, 'a Map key');
        consider(node, value, 'a Map value');
      }
    }
    if (node instanceof Set) for (const value of Set.prototype.values.call(node)) consider(node, value, 'a Set entry');
    if (node instanceof Error) readErrorSurface(node, read);
    const run: unknown[] = [];
    for (const key of Reflect.ownKeys(node)) {
      if (Array.isArray(node) && key === 'length') continue;
      const name = typeof key === 'string' ? key : `[${String(key)}]`;
      if (!Array.isArray(node)) consider(node, key, `the key ${name}`);
      const descriptor = Reflect.getOwnPropertyDescriptor(node, key) as PropertyDescriptor;
      if ('value' in descriptor) {
        consider(node, descriptor.value, name);
        run.push(typeof descriptor.value === 'string' ? descriptor.value : null);
      } else if (descriptor.get !== undefined) {
        const getter = descriptor.get;
        read(node, `${name} (a getter)`, () => getter.call(node));
      }
    }
    // A secret split over fields side by side (`token_start`, `token_end`) is found as one text.
    if (run.filter((item) => item !== null).length > 1 && scrubber.contains(run)) note(node, 'fields side by side');
  }

  // Whatever reaches an object that shows a secret holds one: walk the edges backwards from those.
  const parents = new Map<object, object[]>();
  for (const [node, children] of edges) {
    for (const child of children) {
      const list = parents.get(child);
      if (list === undefined) parents.set(child, [node]);
      else list.push(node);
    }
  }
  const holding = new Set<object>(reasons.keys());
  const queue = [...holding];
  while (queue.length > 0) {
    for (const parent of parents.get(queue.pop() as object) ?? []) {
      if (!holding.has(parent)) {
        holding.add(parent);
        queue.push(parent);
      }
    }
  }
  return { holding, reasons, complete };
}

/**
 * Whether an object that is not an error prints itself (a custom `util.inspect`): a URL, `Headers`,
 * `URLSearchParams`, or a class of a library's. Bytes print their bytes, read as bytes.
 */
export function printsItself(node: object): boolean {
  if (node instanceof Error || ArrayBuffer.isView(node)) return false;
  return typeof (node as Record<symbol, unknown>)[inspect.custom] === 'function';
}

/** What an error shows beyond its own fields: how it prints, its class's getters, a custom inspect. */
function readErrorSurface(error: Error, read: (node: object, where: string, value: () => unknown) => void): void {
  read(error, 'toString()', () => String(error));
  for (
    let prototype = Object.getPrototypeOf(error) as object | null;
    prototype !== null && prototype !== Error.prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    for (const key of Reflect.ownKeys(prototype)) {
      const getter = Reflect.getOwnPropertyDescriptor(prototype, key)?.get;
      if (getter !== undefined) read(error, `${String(key)} (a getter of its class)`, () => getter.call(error));
    }
  }
  if (typeof (error as unknown as Record<symbol, unknown>)[inspect.custom] === 'function') {
    read(error, 'util.inspect.custom', () => inspect(error, { depth: 0 }));
  }
}
