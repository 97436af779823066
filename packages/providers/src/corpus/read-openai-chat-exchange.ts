import { readSseJson } from '../shared/sse-frames.js';
import { firstNonEmpty, parseArguments, type ReadTurn } from './read-turn.js';

type Json = Record<string, unknown>;

/** The assistant fields compatible servers document as theirs to get back: reasoning and its signatures. */
export const CHAT_REPLAYED_FIELDS = ['reasoning_content', 'reasoning', 'reasoning_details', 'extra_content'] as const;

/** On Chat, what must go back: the message's reasoning fields and each call's `extra_content`, by position. */
export interface ChatReplayed {
  fields: Json;
  toolCalls: Json[];
}

interface Call {
  id: string;
  name: string;
  arguments: string;
  extra: Json;
}

/**
 * Reads a Chat Completions answer, JSON or a raw SSE body, as the API and the compatible servers
 * document it. A stream is folded chunk by chunk: text and reasoning strings concatenate, tool-call
 * pieces gather by `index`, OpenRouter's `reasoning_details` pieces gather by their own `index`,
 * `extra_content` objects merge, and a chunk with an `error` is the answer's error.
 *
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks
 */
export function readOpenAIChatExchange(body: string, streamed: boolean): ReadTurn {
  return streamed ? foldStream(body) : readJson(JSON.parse(body) as Json);
}

function readJson(body: Json): ReadTurn {
  const choice = ((body['choices'] as Json[] | undefined) ?? [])[0] ?? {};
  const message = (choice['message'] as Json | undefined) ?? {};
  const calls = ((message['tool_calls'] as Json[] | undefined) ?? []).map((call) => {
    const { id, function: fn, type: _type, index: _index, ...extra } = call as Json & { function: Json };
    return { id: String(id ?? ''), name: String(fn['name']), arguments: String(fn['arguments'] ?? ''), extra };
  });
  return turn({
    text: typeof message['content'] === 'string' ? message['content'] : '',
    calls,
    stopReason: choice['finish_reason'],
    id: firstNonEmpty(undefined, body['id']),
    model: firstNonEmpty(undefined, body['model']),
    fields: pick(message),
    error: undefined,
  });
}

function foldStream(body: string): ReadTurn {
  let text = '';
  let stopReason: unknown;
  let id: string | undefined;
  let model: string | undefined;
  const fields: Json = {};
  const calls: Call[] = [];
  for (const { value: chunk } of readSseJson(body)) {
    id = firstNonEmpty(id, chunk['id']);
    model = firstNonEmpty(model, chunk['model']);
    if (chunk['error'] !== undefined && chunk['error'] !== null) {
      const error = chunk['error'] as Json;
      return turn({ text, calls, stopReason, id, model, fields, error: readError(error) });
    }
    const choice = ((chunk['choices'] as Json[] | undefined) ?? []).find(
      (candidate) => (candidate['index'] ?? 0) === 0,
    );
    if (choice === undefined) continue;
    const delta = (choice['delta'] as Json | null | undefined) ?? {};
    if (typeof delta['content'] === 'string') text += delta['content'];
    for (const name of ['reasoning_content', 'reasoning'] as const) {
      if (typeof delta[name] === 'string') fields[name] = String(fields[name] ?? '') + delta[name];
    }
    if (Array.isArray(delta['reasoning_details']) && delta['reasoning_details'].length > 0) {
      fields['reasoning_details'] = mergeDetails(
        (fields['reasoning_details'] as Json[] | undefined) ?? [],
        delta['reasoning_details'],
      );
    }
    if (isObject(delta['extra_content']))
      fields['extra_content'] = merge(fields['extra_content'], delta['extra_content']);
    for (const piece of (delta['tool_calls'] as Json[] | null | undefined) ?? []) {
      const index = pieceIndex(calls, piece);
      const call = calls[index] ?? { id: '', name: '', arguments: '', extra: {} };
      calls[index] = call;
      const fn = (piece['function'] as Json | undefined) ?? {};
      // Only a call's first piece names it; Qwen repeats `"id": ""` on every later piece.
      call.id = firstNonEmpty(call.id, piece['id']) ?? '';
      if (typeof fn['name'] === 'string') call.name += fn['name'];
      if (typeof fn['arguments'] === 'string') call.arguments += fn['arguments'];
      if (isObject(piece['extra_content']))
        call.extra['extra_content'] = merge(call.extra['extra_content'], piece['extra_content']);
    }
    if (choice['finish_reason'] !== null && choice['finish_reason'] !== undefined) stopReason = choice['finish_reason'];
  }
  return turn({ text, calls, stopReason, id, model, fields, error: undefined });
}

function turn(parts: {
  text: string;
  calls: Call[];
  stopReason: unknown;
  id: string | undefined;
  model: string | undefined;
  fields: Json;
  error: ReadTurn['error'];
}): ReadTurn {
  const replayed: ChatReplayed = {
    fields: parts.fields,
    toolCalls: parts.calls.map((call) =>
      isObject(call.extra['extra_content']) ? { extra_content: call.extra['extra_content'] } : {},
    ),
  };
  return {
    text: parts.text,
    toolCalls: parts.calls.map((call) => ({ id: call.id, name: call.name, arguments: parseArguments(call.arguments) })),
    stopReason: typeof parts.stopReason === 'string' ? parts.stopReason : undefined,
    responseId: parts.id,
    responseModel: parts.model,
    error: parts.error,
    replayed,
  };
}

/** Pieces name their call by `index`; without one, a new id opens a call and anything else continues the last. */
function pieceIndex(calls: readonly Call[], piece: Json): number {
  if (typeof piece['index'] === 'number') return piece['index'];
  const last = calls.at(-1);
  const opens =
    last === undefined || (typeof piece['id'] === 'string' && piece['id'] !== '' && piece['id'] !== last.id);
  return opens ? calls.length : calls.length - 1;
}

function pick(message: Json): Json {
  const fields: Json = {};
  for (const name of CHAT_REPLAYED_FIELDS)
    if (message[name] !== undefined && message[name] !== null) fields[name] = message[name];
  return fields;
}

function readError(error: Json): NonNullable<ReadTurn['error']> {
  return {
    code: error['code'],
    ...(typeof error['type'] === 'string' ? { type: error['type'] } : {}),
    ...(typeof error['message'] === 'string' ? { message: error['message'] } : {}),
  };
}

/** OpenRouter streams each reasoning detail in pieces under one `index`: texts join, later non-empty values win. */
function mergeDetails(details: Json[], pieces: Json[]): Json[] {
  const merged = details.map((detail) => ({ ...detail }));
  for (const piece of pieces) {
    const target = merged.find((detail) => detail['index'] === piece['index']);
    if (target === undefined) {
      merged.push({ ...piece });
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if (key === 'text' || key === 'summary' || key === 'data')
        target[key] = String(target[key] ?? '') + String(value ?? '');
      else if (!(key in target) || (value !== null && value !== '')) target[key] = value;
    }
  }
  return merged;
}

function merge(current: unknown, next: Json): Json {
  if (!isObject(current)) return structuredClone(next);
  const merged: Json = { ...current };
  for (const [key, value] of Object.entries(next)) merged[key] = isObject(value) ? merge(merged[key], value) : value;
  return merged;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
