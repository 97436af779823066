/**
 * Assistant-message fields that OpenAI-compatible servers add to Chat Completions and need back
 * on the next request, or they refuse it or lose the model's reasoning:
 * - `reasoning_content`: DeepSeek (thinking mode answers 400 without it on a tool-call resume),
 *   xAI, Qwen, Moonshot;
 * - `reasoning`: Ollama, Groq (`reasoning_format: "parsed"`), OpenRouter;
 * - `reasoning_details`: OpenRouter's structured reasoning, signatures included;
 * - `extra_content`: Gemini's compatible endpoint (`extra_content.google.thought_signature`).
 *
 * Only a server that sends one of them gets it back, so OpenAI itself never sees them.
 *
 * @see https://api-docs.deepseek.com/guides/thinking_mode#tool-calls
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const REPLAYED_MESSAGE_FIELDS = [
  'reasoning_content',
  'reasoning',
  'reasoning_details',
  'extra_content',
] as const;

export type ReplayedFields = Record<string, unknown>;

/** The replayed fields a whole (non-streamed) message or tool call carries, nulls left out. */
export function pickReplayedFields(
  source: Record<string, unknown>,
  names: readonly string[] = REPLAYED_MESSAGE_FIELDS,
): ReplayedFields {
  const fields: ReplayedFields = {};
  for (const name of names) if (source[name] !== undefined && source[name] !== null) fields[name] = source[name];
  return fields;
}

/**
 * Gathers the replayed fields of a streamed message from its deltas: reasoning strings join,
 * `reasoning_details` pieces join by their own `index` (texts concatenate, a later non-empty
 * value such as the signature wins), `extra_content` objects merge.
 */
export function createReplayedFieldsCollector() {
  const fields: ReplayedFields = {};
  return {
    add(delta: Record<string, unknown>): void {
      for (const name of ['reasoning_content', 'reasoning'] as const) {
        const piece = delta[name];
        if (typeof piece === 'string') fields[name] = `${typeof fields[name] === 'string' ? fields[name] : ''}${piece}`;
      }
      const details = delta['reasoning_details'];
      if (Array.isArray(details) && details.length > 0) {
        fields['reasoning_details'] = mergeReasoningDetails(fields['reasoning_details'], details);
      }
      if (isRecord(delta['extra_content']))
        fields['extra_content'] = mergeObjects(fields['extra_content'], delta['extra_content']);
    },
    fields: (): ReplayedFields => fields,
  };
}

function mergeReasoningDetails(current: unknown, pieces: unknown[]): Record<string, unknown>[] {
  const merged = Array.isArray(current) ? (current as Record<string, unknown>[]) : [];
  for (const piece of pieces) {
    if (!isRecord(piece)) continue;
    const target = merged.find((detail) => detail['index'] === piece['index']);
    if (target === undefined) {
      merged.push({ ...piece });
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if (key === 'text' || key === 'summary' || key === 'data') {
        target[key] = `${typeof target[key] === 'string' ? target[key] : ''}${typeof value === 'string' ? value : ''}`;
      } else if (!(key in target) || (value !== null && value !== '')) {
        target[key] = value;
      }
    }
  }
  return merged;
}

/** `next` merged into `current`, nested objects too; a streamed `extra_content` may come in parts. */
export function mergeObjects(current: unknown, next: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = isRecord(current) ? { ...current } : {};
  for (const [key, value] of Object.entries(next)) {
    merged[key] = isRecord(value) ? mergeObjects(merged[key], value) : value;
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
