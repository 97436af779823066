import type { Generation, GenerationResponse, GenerationStream, ResumeInput, StreamPart } from '@interlude/core';

/** A generation's stop (paused or done) and, when streamed, every part it yielded. */
export interface GenerationRun {
  response: GenerationResponse;
  parts: StreamPart[];
}

/**
 * Runs a generation to its next stop the way a user would: `generateNow()`/`resumeNow()`, or by
 * iterating `stream()`/`resumeStream()` and then awaiting `stream.response`. The OpenAI suites run
 * every scenario both ways through this one function.
 */
export async function runToStop(generation: Generation, stream: boolean, resume?: ResumeInput): Promise<GenerationRun> {
  if (!stream) {
    const response = resume ? await generation.resumeNow(resume) : await generation.generateNow();
    return { response, parts: [] };
  }
  const live: GenerationStream = resume ? generation.resumeStream(resume) : generation.stream();
  const parts: StreamPart[] = [];
  for await (const part of live) parts.push(part);
  return { response: await live.response, parts };
}

/** A value as it comes back from a database: through `JSON.stringify` and `JSON.parse`. */
export function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
