import { type Context, createContextKey, type Span } from '@opentelemetry/api';

/**
 * What of a generation's secrets a span needs: core's scrubber, which grows as secret answers
 * arrive, so a span started before the answer and ended after it is still scrubbed.
 */
export interface SpanSecrets {
  readonly isEmpty: boolean;
  text(value: string): string;
}

/**
 * Where a generation's context keeps the secrets of every generation it runs in, outermost
 * first. `createContextKey` returns `Symbol.for` of its name, so two copies of this package
 * still agree on it.
 */
const SECRETS_KEY = createContextKey('interlude.generation-secrets');

/** The secrets of every generation a span started in `parent` runs inside. */
export function secretsIn(parent: Context): readonly SpanSecrets[] {
  return (parent.getValue(SECRETS_KEY) as readonly SpanSecrets[] | undefined) ?? [];
}

/** A generation's context: its parent's, with the generation's secrets added. */
export function withSecrets(parent: Context, secrets: SpanSecrets | undefined): Context {
  return secrets === undefined ? parent : parent.setValue(SECRETS_KEY, [...secretsIn(parent), secrets]);
}

/**
 * The secrets of each span the scrubbing processor saw start (from its parent context), and of
 * each generation root (which starts in its caller's context, so its own secrets are added here).
 */
const spanSecrets = new WeakMap<object, readonly SpanSecrets[]>();

export function rememberSecrets(span: Span | object, secrets: readonly SpanSecrets[]): void {
  spanSecrets.set(span, [...(spanSecrets.get(span) ?? []), ...secrets]);
}

export function secretsOf(span: object): readonly SpanSecrets[] | undefined {
  return spanSecrets.get(span);
}
