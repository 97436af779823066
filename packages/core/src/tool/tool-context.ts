import { AsyncLocalStorage } from 'node:async_hooks';

/** What a running tool body can read without being handed `ctx`. */
export interface ToolRunScope {
  toolCallId: string;
  /** Answers of the current generation's paused turn, by tool call id. */
  answers: ReadonlyMap<string, unknown>;
}

const storage = new AsyncLocalStorage<ToolRunScope>();

/** Runs a tool body inside its scope; a nested generation opens a fresh one, so it never sees its parent's answers. */
export function runInToolScope<T>(scope: ToolRunScope, body: () => T): T {
  return storage.run(scope, body);
}

export function currentToolContext(): ToolRunScope | undefined {
  return storage.getStore();
}

/** Leaves every tool scope: a nested generation starts outside its parent's. */
export function runOutsideToolScope<T>(body: () => T): T {
  return storage.exit(body);
}
