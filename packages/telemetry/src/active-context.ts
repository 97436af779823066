import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, context, trace } from '@opentelemetry/api';

/**
 * Our own record of the context a `runInContext` body runs in. OpenTelemetry's `context.with()`
 * does nothing until someone registers a context manager (a `NodeTracerProvider.register()`,
 * the Node SDK); a user who only passes a `tracerProvider` still expects a delegated agent's
 * generation to nest under the tool that started it. Node's AsyncLocalStorage gives us that.
 */
const activeContexts = new AsyncLocalStorage<Context>();

/** Bodies running inside `runWithContext` now, until the promise each returned settles. */
let runningBodies = 0;

/**
 * Runs `body` with `activeContext` active both for OpenTelemetry (SDK HTTP spans) and for us.
 * On Node 20 an enabled AsyncLocalStorage runs a hook on every promise the process creates, so
 * ours is switched off whenever no body runs: the steps between spans (the bus, the state
 * machine) do not pay for it.
 */
export function runWithContext<T>(activeContext: Context, body: () => T): T {
  runningBodies += 1;
  let result: T;
  try {
    result = activeContexts.run(activeContext, () => context.with(activeContext, body));
  } catch (error) {
    bodyEnded();
    throw error;
  }
  if (!(result instanceof Promise)) {
    bodyEnded();
    return result;
  }
  return result.finally(bodyEnded) as T;
}

function bodyEnded(): void {
  runningBodies -= 1;
  if (runningBodies === 0) activeContexts.disable();
}

/**
 * The context a new generation should start in: OpenTelemetry's active one when it carries a
 * span (a registered context manager knows best, e.g. a user's own span inside a tool), else
 * the one our `runWithContext` set, else the root.
 */
export function currentContext(): Context {
  const globalContext = context.active();
  if (trace.getSpan(globalContext) !== undefined) return globalContext;
  return activeContexts.getStore() ?? globalContext;
}
