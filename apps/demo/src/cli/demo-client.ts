import type { GenerationEvent } from '@interlude/core';
import { PNPM } from '../config/pnpm-command.js';
import { coerceAnswer } from '../server/coerce-answer.js';
import type { PendingQuestion } from '../server/pending-questions.js';

/** How the gateway took an answer: queued for the worker, or resumed in the server (a secret). */
export type AnswerOutcome = { resumed: 'queued'; job_id: string } | { resumed: 'in_process'; status: string };

/**
 * The demo server's HTTP API, as the terminal client uses it. With the memory bus, the bus lives
 * inside the server process, so this is the only way in; the base URL is `DEMO_URL`, else
 * `http://127.0.0.1:$PORT` (3000).
 */
export class DemoClient {
  readonly baseUrl: string;

  constructor(environment: NodeJS.ProcessEnv = process.env) {
    this.baseUrl = (environment['DEMO_URL'] ?? `http://127.0.0.1:${environment['PORT'] ?? 3000}`).replace(/\/$/, '');
  }

  pending(): Promise<PendingQuestion[]> {
    return this.#request('GET', '/api/pending');
  }

  /**
   * Answers one question through the gateway with its answer token: a string as typed (read as
   * the question's kind takes it: `yes`/`no` for a confirm), or `false` to decline it.
   */
  async answer(generationId: string, toolCallId: string, value: string | false): Promise<AnswerOutcome> {
    const question = (await this.pending()).find(
      (candidate) => candidate.generationId === generationId && candidate.toolCallId === toolCallId,
    );
    if (question === undefined) throw new Error(`Generation ${generationId} is not waiting on call ${toolCallId}`);
    const answer = coerceAnswer(
      { kind: question.kind, prompt: question.prompt, ...(question.options && { options: question.options }) },
      value,
    );
    return this.#request(
      'POST',
      `/v1/generations/${encodeURIComponent(generationId)}/answers`,
      { answers: { [toolCallId]: answer } },
      question.answerToken,
    );
  }

  events(generationId: string): Promise<GenerationEvent[]> {
    return this.#request('GET', `/api/generations/${encodeURIComponent(generationId)}/events`);
  }

  /**
   * Follows the server's event stream (SSE), calling `onOpen` once the server is subscribed and
   * `onEvent` per transition, until the stream ends or `signal` aborts.
   */
  async follow(
    query: string,
    handlers: { onOpen(): void; onEvent(event: GenerationEvent): void },
    signal?: AbortSignal,
  ): Promise<void> {
    // Loaded here, not with the client: the other commands start without the providers' package.
    const { readSseStream } = await import('@interlude/providers/testing');
    const response = await this.#fetch(`/api/events?${query}`, { ...(signal && { signal }) });
    if (!response.ok || response.body === null) throw new Error(`The demo server answered ${response.status}`);
    handlers.onOpen();
    for await (const frame of readSseStream(response.body)) {
      if (frame.data !== '') handlers.onEvent(JSON.parse(frame.data) as GenerationEvent);
    }
  }

  async #request<Result>(method: string, path: string, body?: unknown, token?: string): Promise<Result> {
    const response = await this.#fetch(path, {
      method,
      headers: { 'content-type': 'application/json', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    // The desk's own routes say { error: message }; the gateway's { error: { code, message } }.
    const payload = (await response.json()) as Result & { error?: string | { message: string } };
    if (!response.ok) {
      const error = payload.error;
      throw new Error(
        (typeof error === 'object' ? error.message : error) ?? `The demo server answered ${response.status}`,
      );
    }
    return payload;
  }

  async #fetch(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.baseUrl}${path}`, init);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new Error(
        `Cannot reach the demo server at ${this.baseUrl}: is \`${PNPM} demo\` running? (DEMO_URL / PORT)`,
      );
    }
  }
}
