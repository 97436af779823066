import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** The three wire APIs the corpus covers, named as the adapters' folders are. */
export type CorpusApi = 'anthropic' | 'openai-chat' | 'openai-responses';

export const CORPUS_APIS: readonly CorpusApi[] = ['anthropic', 'openai-chat', 'openai-responses'];

/** Where a recorded shape was seen: the project, the file, the commit and date it was recorded at. */
export interface SeenIn {
  project: string;
  file: string;
  commit: string;
  date: string;
  /** Which part of that file (`interaction #1 response, #2 request`). */
  what: string;
}

/** `provenance.json`: who answered, how the adapter was set up, and where the shape comes from. */
export interface Provenance {
  /** The server that answered (`DeepSeek`, `Gemini (OpenAI compatibility)`, `OpenAI`, …). */
  server: string;
  /** The model name the adapter is built with (the recorded request's). */
  model: string;
  /** Options for the adapter's factory, beyond model, key and endpoint (`instructionsRole`, `thinking`). */
  adapter?: Record<string, unknown>;
  /** The time the recording was made at, ISO 8601: the adapter's clock during the replay. */
  clock?: string;
  /** Where the shape was recorded. Empty for a hand-made exchange. */
  seen: SeenIn[];
  /** For a hand-made exchange: why it is needed and what it is modelled on. */
  handMade?: string;
  /** What was replaced (ids, texts, signatures) and anything else a reader should know. */
  notes: string;
}

/** One exchange of the corpus: a request, the raw answer, and where known the next request the server accepted. */
export interface Exchange {
  /** `recorded/openai-chat/deepseek-thinking-tool-calls`. */
  name: string;
  api: CorpusApi;
  handMade: boolean;
  provenance: Provenance;
  /** Whether the answer is an SSE body (`response.sse`) or JSON (`response.json`). */
  streamed: boolean;
  request: Record<string, unknown>;
  /** The answer's raw bytes, framing included. */
  response: string;
  /** The request the server accepted next, in the recorded shape; `"$generated:N"` marks an id the client makes up. */
  nextRequest: Record<string, unknown> | undefined;
  /** The raw answer to `nextRequest`, in the same framing as `response`. */
  nextResponse: string | undefined;
}

const root = new URL('./__fixtures__/', import.meta.url);

/**
 * Every exchange of the corpus, recorded ones first, then the hand-made edge cases; the opener
 * and closer turns the replay frames them with are not exchanges of their own.
 */
export function loadCorpus(): Exchange[] {
  const exchanges: Exchange[] = [];
  for (const origin of ['recorded', 'hand-made'] as const) {
    for (const api of CORPUS_APIS) {
      const folder = new URL(`${origin}/${api}/`, root);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder).sort()) {
        if (origin === 'hand-made' && (name === 'opener' || name === 'closer')) continue;
        exchanges.push(loadExchange(`${origin}/${api}/${name}`, api));
      }
    }
  }
  return exchanges;
}

/**
 * The hand-made turn the replay frames an exchange with, as raw bytes in the framing asked for:
 * `opener` asks for `issue_refund` so a generation pauses, `closer` ends it with plain text.
 */
export function loadFrame(api: CorpusApi, name: 'opener' | 'closer', streamed: boolean): string {
  return readFileSync(new URL(`hand-made/${api}/${name}/response.${streamed ? 'sse' : 'json'}`, root), 'utf8');
}

function loadExchange(name: string, api: CorpusApi): Exchange {
  const folder = new URL(`${name}/`, root);
  const read = (file: string) => readFileSync(new URL(file, folder), 'utf8');
  const has = (file: string) => existsSync(new URL(file, folder));
  const streamed = has('response.sse');
  const answer = streamed ? 'sse' : 'json';
  const provenance = JSON.parse(read('provenance.json')) as Provenance;
  if (!name.startsWith('hand-made/') && provenance.seen.length === 0) {
    throw new Error(`${name}: a recorded exchange must say where its shape was seen`);
  }
  return {
    name,
    api,
    handMade: name.startsWith('hand-made/'),
    provenance,
    streamed,
    request: JSON.parse(read('request.json')) as Record<string, unknown>,
    response: read(`response.${answer}`),
    nextRequest: has('next-request.json')
      ? (JSON.parse(read('next-request.json')) as Record<string, unknown>)
      : undefined,
    nextResponse: has(`next-response.${answer}`) ? read(`next-response.${answer}`) : undefined,
  };
}
