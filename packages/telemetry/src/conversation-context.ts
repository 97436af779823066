import { type Context, createContextKey } from '@opentelemetry/api';

/**
 * Where a generation's context keeps its conversation id, so a generation started inside it (a
 * delegation, resumed with its parent too) joins the same conversation. `createContextKey`
 * returns `Symbol.for` of its name, so two copies of this package still agree on it.
 */
const CONVERSATION_KEY = createContextKey('interlude.conversation-id');

export function conversationIn(parent: Context): string | undefined {
  return parent.getValue(CONVERSATION_KEY) as string | undefined;
}

export function withConversation(parent: Context, conversationId: string): Context {
  return parent.setValue(CONVERSATION_KEY, conversationId);
}
