/** A non-streamed Chat Completions response (`chat.completion`) with one choice, as scripted models write it. */
export interface ChatCompletionBody {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: {
    index: number;
    message: {
      role?: string;
      content: string | null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
    logprobs: null;
  }[];
  usage: Record<string, number>;
}

/**
 * The same answer as the `chat.completion.chunk`s the OpenAI API streams for it (recorded in
 * `packages/providers/src/openai-chat/__fixtures__/*.chunks.txt`): a chunk with the role, the text
 * in word-sized pieces, each tool call opened by a chunk with its `index`, `id`, `type` and name
 * (arguments `""`) and followed by its arguments in token-sized pieces, then a chunk with the
 * finish reason. When the request asked for `stream_options.include_usage`, every chunk carries
 * `usage: null` and a last chunk with no choices carries the usage. The wire server sends each as
 * a `data:` frame and ends with `data: [DONE]`, so every streamed variant parses as many frames
 * and pieces as it would from the real API.
 */
export function streamedCompletion(completion: ChatCompletionBody, includeUsage: boolean): unknown[] {
  const choice = completion.choices[0];
  const content = choice?.message.content ?? null;
  const calls = choice?.message.tool_calls ?? [];
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage && { usage: null }),
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: content === null ? null : '', refusal: null })];
  for (const piece of wordPieces(content ?? '')) chunks.push(chunk({ content: piece }));
  for (const [index, call] of calls.entries()) {
    chunks.push(
      chunk({
        tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
      }),
    );
    for (const piece of tokenPieces(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  chunks.push(chunk({}, choice?.finish_reason ?? 'stop'));
  if (includeUsage) {
    chunks.push({ ...chunk({}), choices: [], usage: completion.usage });
  }
  return chunks;
}

/** `I refunded $30` → `I`, ` refunded`, ` $30`: how the API's text deltas fall for plain prose. */
function wordPieces(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [];
}

/** `{"order_id":42}` → `{"`, `order_id`, `":`, `42`, `}`: close to the model's tokens of JSON arguments. */
function tokenPieces(json: string): string[] {
  return json.match(/\w+|\W+/g) ?? [];
}
