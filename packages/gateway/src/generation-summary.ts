import type { GenerationEvent } from '@interlude/core';
import type { z } from 'zod';
import type { generationSchema, generationStatusSchema } from './wire-schemas.js';

type GenerationStatus = z.infer<typeof generationStatusSchema>;

/** The events that decide where a generation stands; any other one means it is running. */
const STANDING: Partial<Record<GenerationEvent['event'], GenerationStatus>> = {
  input_requested: 'awaiting_input',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  tool_turns_exceeded: 'tool_turns_exceeded',
};

/**
 * Where a generation stands, read from its event log (the truth; the bus scrubbed it of secrets):
 * the latest event's standing, with what it asks, its final text or its error.
 */
export function generationSummary(events: readonly GenerationEvent[]): z.infer<typeof generationSchema> | undefined {
  const last = events.at(-1);
  if (last === undefined) return undefined;
  const status = STANDING[last.event] ?? 'running';
  const data = last.data as Record<string, unknown>;
  return {
    generation_id: last.generation_id,
    agent: last.agent,
    action: last.action,
    status,
    updated_at: last.time,
    ...(status === 'awaiting_input' && {
      input_requests: data['input_requests'] as z.infer<typeof generationSchema>['input_requests'],
    }),
    ...(status === 'completed' && { text: String(data['text'] ?? '') }),
    ...(status === 'failed' && { error: data['error'] as { name: string; message: string; code?: string } }),
  };
}
