import type { Generation, GenerationResponse, ResumeInput, StreamPart } from '@interlude/core';

export interface StoppedGeneration {
  response: GenerationResponse;
  /** The parts a streamed run yielded, in order; empty for `generateNow()` / `resumeNow()`. */
  parts: StreamPart[];
}

/**
 * Runs a generation (or a resume of it) to its next stop, either through `generateNow()` /
 * `resumeNow()` or by reading `stream()` / `resumeStream()` to the end and then awaiting
 * `stream.response`, so one test body checks both ways a user runs an agent.
 */
export async function runToStop(
  generation: Generation,
  options: { stream: boolean; resume?: ResumeInput },
): Promise<StoppedGeneration> {
  const { stream, resume } = options;
  if (!stream) {
    const response = resume ? await generation.resumeNow(resume) : await generation.generateNow();
    return { response, parts: [] };
  }
  const live = resume ? generation.resumeStream(resume) : generation.stream();
  const parts: StreamPart[] = [];
  for await (const part of live) parts.push(part);
  return { response: await live.response, parts };
}

/** A value as it comes back from a database: through `JSON.stringify` and `JSON.parse`. */
export function throughJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
