import type { Bus } from '../bus/bus.js';
import type { CompletedResult } from '../checkpoint/checkpoint.js';
import type { CheckpointState } from '../checkpoint/checkpoint-defaults.js';
import type { RunRecovery } from './recover-run.js';

/**
 * The results the event log holds for calls a pause asks about because their outcome was unknown.
 * The run that asked found the call started and no result; a result can still be logged under an
 * earlier epoch of that run after it looked (its holder's lease check passed just before the
 * takeover was written, and its publish landed just after the takeover read the log). Whichever
 * way the person answers then, the call ran once and its result is known: it is reused, never run
 * again. The asking run is the one that announced this pause (`input_requested` at its slot).
 */
export async function loggedResultsOfUnknownCalls(
  bus: Bus,
  state: CheckpointState,
): Promise<Record<string, CompletedResult>> {
  const unknown = new Set(
    state.input_requests
      .filter((request) => request.metadata?.['outcome_unknown'] === true)
      .map((request) => request.tool_call_id),
  );
  if (unknown.size === 0) return {};
  const events = await bus.events(state.generation_id, { everyEpoch: true });
  const asked = events.findLast(
    (event) => event.event === 'input_requested' && event.data.claim_slot === state.claim_slot,
  );
  const results: Record<string, CompletedResult> = {};
  if (asked === undefined) return results;
  for (const event of events) {
    if (event.event !== 'tool_completed' || event.run !== asked.run || !unknown.has(event.data.tool_call_id)) continue;
    results[event.data.tool_call_id] = {
      tool_name: event.data.tool_name,
      result: event.data.result,
      is_error: event.data.is_error,
    };
  }
  return results;
}

/** A run's recovery with `results` added to what it reuses (none: the recovery as it was). */
export function withLoggedResults(
  recovery: RunRecovery | undefined,
  results: Record<string, CompletedResult>,
): RunRecovery | undefined {
  if (Object.keys(results).length === 0) return recovery;
  return {
    completed: { ...results, ...recovery?.completed },
    started: recovery?.started ?? new Map(),
    responses: recovery?.responses ?? [],
  };
}
