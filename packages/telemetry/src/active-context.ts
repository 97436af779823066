import { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, context, trace } from '@opentelemetry/api';

/**
 * Our own record of the context a `runInContext` body runs in. OpenTelemetry's `context.with()`
 * does nothing until someone registers a context manager (a `NodeTracerProvider.register()`,
 * the Node SDK); a user who only passes a `tracerProvider` still expects a delegated agent's
 * generation to nest under the tool that started it. Node's AsyncLocalStorage gives us that.
 */
const activeContexts = new AsyncLocalStorage<Context>();

/** Runs `body` with `activeContext` active both for OpenTelemetry (SDK HTTP spans) and for us. */
export function runWithContext<T>(activeContext: Context, body: () => T): T {
  return activeContexts.run(activeContext, () => context.with(activeContext, body));
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
