/**
 * Where `hasContext()` keeps conversations across generations. Core ships a memory store;
 * `@interlude/bus/postgres` has a PostgreSQL one. Rows are plain JSON, already scrubbed.
 */
export interface ContextStore {
  /** A context's messages, oldest first. */
  load(contextKey: string): Promise<ContextMessage[]>;
  /** Appends messages in order; a tool message whose `toolCallId` the context already holds is skipped. */
  append(contextKey: string, messages: readonly ContextMessage[]): Promise<void>;
  /** Creates or updates the one row a generation has in its context. */
  recordGeneration(contextKey: string, generation: ContextGeneration): Promise<void>;
}

export interface ContextMessage {
  generationId: string;
  role: 'user' | 'assistant' | 'tool';
  /** Text for user and assistant messages; `{ tool_name, arguments, result, is_error }` for tool messages. */
  content: unknown;
  toolCallId?: string;
}

export interface ContextGeneration {
  generationId: string;
  agent: string;
  action: string;
  status: 'awaiting_input' | 'completed' | 'tool_turns_exceeded' | 'failed';
}
