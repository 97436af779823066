/** A client tool call exactly as the server wrote it: its id may be empty or repeated. */
export interface ReadToolCall {
  id: string;
  name: string;
  /** The arguments JSON, parsed; an empty string reads as `{}`. */
  arguments: unknown;
}

/**
 * What one recorded answer says, read straight from its raw body by the corpus readers: the text
 * a user reads, the client calls, the stop reason, who answered, the error a stream carried, and
 * the assistant turn the server must get back on the next request. The adapters' results are
 * checked against this, so it is computed by code of its own, never by the adapters'.
 */
export interface ReadTurn {
  text: string;
  toolCalls: ReadToolCall[];
  /** The provider's own stop reason (`tool_use`, `tool_calls`, `completed`, …). */
  stopReason: string | undefined;
  /** The first non-empty response id and model name the answer carried. */
  responseId: string | undefined;
  responseModel: string | undefined;
  /** An error the body carried instead of an answer (an SSE `error` event, a chunk with `error`). */
  error: { code?: unknown; type?: string; message?: string } | undefined;
  /**
   * What must go back unchanged: Anthropic content blocks, Responses output items, or on Chat the
   * assistant message's reasoning fields (`reasoning_content`, `reasoning`, `reasoning_details`,
   * `extra_content`) and each call's `extra_content`, by call position.
   */
  replayed: unknown;
}

/** Parses tool arguments the way every API documents them: a JSON text, empty meaning none. */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  return text.trim() === '' ? {} : JSON.parse(text);
}

/** The first non-empty string of several, so a placeholder `""` never names a response. */
export function firstNonEmpty(current: string | undefined, next: unknown): string | undefined {
  if (current !== undefined && current !== '') return current;
  return typeof next === 'string' && next !== '' ? next : current;
}
