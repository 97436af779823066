import type { OpenAIChatChunk } from './openai-chat-api.js';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;
const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
const nullishString = (value: unknown) => absent(value) || typeof value === 'string';
const optionalNumber = (value: unknown) => value === undefined || typeof value === 'number';

function isCommonPiece(piece: unknown): boolean {
  if (!isObject(piece) || !optionalNumber(piece['index']) || !nullishString(piece['id'])) return false;
  if (!absent(piece['extra_content'])) return false;
  const call = piece['function'];
  if (absent(call)) return true;
  return isObject(call) && nullishString(call['name']) && nullishString(call['arguments']);
}

function isCommonDelta(delta: unknown): boolean {
  if (absent(delta)) return true;
  if (!isObject(delta)) return false;
  if (!nullishString(delta['content']) || !nullishString(delta['reasoning_content'])) return false;
  if (!nullishString(delta['reasoning']) || !absent(delta['reasoning_details'])) return false;
  if (!absent(delta['extra_content'])) return false;
  const pieces = delta['tool_calls'];
  if (absent(pieces)) return true;
  return Array.isArray(pieces) && pieces.every(isCommonPiece);
}

function isCommonChoice(choice: unknown): boolean {
  return (
    isObject(choice) &&
    optionalNumber(choice['index']) &&
    nullishString(choice['finish_reason']) &&
    isCommonDelta(choice['delta'])
  );
}

/**
 * Whether a streamed chunk has the common shape (text, tool-call pieces, a finish reason, no usage
 * and no extra reasoning objects), checked by hand: such a chunk is read as it is, without a zod
 * parse (a parse per chunk copied every chunk, 33 a refund cycle). Anything else, the usage chunk
 * included, goes through `openaiChatChunkSchema`, which also explains what is wrong. It never
 * accepts what the schema refuses (`openai-chat-chunk-check.test.ts`).
 *
 * A hand-written twin of the schema, kept on purpose for speed: what it saves a chunk, measured,
 * is in test/bench/README.md ("Streamed chunks without a zod parse"). Drop it for the schema alone
 * if a benchmark shows the parse no longer costs more.
 */
export function isCommonChunk(raw: unknown): raw is OpenAIChatChunk {
  if (!isObject(raw) || !optionalString(raw['id']) || !optionalString(raw['model'])) return false;
  if (!absent(raw['usage'])) return false;
  const choices = raw['choices'];
  if (choices === undefined) return true;
  return Array.isArray(choices) && choices.every(isCommonChoice);
}
