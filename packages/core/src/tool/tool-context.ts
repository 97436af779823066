import { AsyncLocalStorage } from 'node:async_hooks';

/** What a running tool body can read without being handed `ctx`. */
export interface ToolRunScope {
  toolCallId: string;
  /** Answers of the current generation's paused turn, by tool call id. */
  answers: ReadonlyMap<string, unknown>;
}

const storage = new AsyncLocalStorage<ToolRunScope>();

/** Tool bodies running now, in every generation of the process. */
let runningBodies = 0;

/**
 * Runs a tool body inside its scope until it settles; a nested generation opens a fresh one, so it
 * never sees its parent's answers. On Node 20 an enabled AsyncLocalStorage runs a hook on every
 * promise the process creates (the SDKs' and the HTTP client's included), so the storage is
 * switched off whenever no tool body runs: the rest of a generation does not pay for it.
 */
export async function runInToolScope<T>(scope: ToolRunScope, body: () => T): Promise<Awaited<T>> {
  runningBodies += 1;
  try {
    return await storage.run(scope, body);
  } finally {
    runningBodies -= 1;
    if (runningBodies === 0) storage.disable();
  }
}

export function currentToolContext(): ToolRunScope | undefined {
  return storage.getStore();
}

/** Leaves every tool scope: a nested generation starts outside its parent's. */
export function runOutsideToolScope<T>(body: () => T): T {
  return storage.exit(body);
}
