import type { Bus } from '../bus/bus.js';
import type { EventData } from '../bus/events.js';
import { epochOf } from '../bus/latest-epochs.js';
import type { CompletedResult } from '../checkpoint/checkpoint.js';
import type { RunLease } from './run-lease.js';

/** A call an earlier holder started and never logged a result for. */
export interface StartedCall {
  toolName: string;
  /** The highest attempt its body was started as (1, or more once it ran again). */
  attempts: number;
}

/**
 * What earlier holders of a run did, read from the event log (every epoch, not just the latest)
 * and the claim log, so the run that follows them neither repeats nor loses it.
 */
export interface RunRecovery {
  /** Calls with a logged result, in any epoch: reused, never run again. */
  completed: Record<string, CompletedResult>;
  /** Calls started with no result: their outcome is unknown, so they are not run again blindly. */
  started: ReadonlyMap<string, StartedCall>;
  /**
   * The model's answers as the furthest earlier holder logged them, in order: the run takes these
   * instead of asking the model again, so the calls it replays keep their ids (and no tokens are
   * spent twice).
   */
  responses: EventData['model_responded'][];
}

/** Reads what earlier holders of the run `run` (the same checkpoint, or `start`) logged. */
export async function recoverRun(bus: Bus, lease: RunLease, run: string): Promise<RunRecovery> {
  const completed: Record<string, CompletedResult> = {};
  const startedAttempts = new Map<string, number>();
  const startedNames = new Map<string, string>();
  const responsesByEpoch = new Map<number, EventData['model_responded'][]>();
  for (const event of await bus.events(lease.generationId, { everyEpoch: true })) {
    if (event.run !== run) continue;
    switch (event.event) {
      case 'tool_completed':
        completed[event.data.tool_call_id] = {
          tool_name: event.data.tool_name,
          result: event.data.result,
          is_error: event.data.is_error,
        };
        break;
      case 'tool_started': {
        const callId = event.data.tool_call_id;
        startedAttempts.set(callId, Math.max(startedAttempts.get(callId) ?? 0, event.data.attempt));
        startedNames.set(callId, event.data.tool_name);
        break;
      }
      case 'model_responded': {
        const epoch = epochOf(event);
        const list = responsesByEpoch.get(epoch) ?? [];
        list.push(event.data);
        responsesByEpoch.set(epoch, list);
        break;
      }
    }
  }
  // A step the claim log holds may have no event: its holder stopped between the two writes.
  for (const [callId, toolName] of lease.startedCalls) {
    if (!startedNames.has(callId)) startedNames.set(callId, toolName);
  }
  const started = new Map<string, StartedCall>();
  for (const [callId, toolName] of startedNames) {
    if (completed[callId] !== undefined) continue;
    started.set(callId, { toolName, attempts: Math.max(1, startedAttempts.get(callId) ?? 0) });
  }
  return { completed, started, responses: furthest(responsesByEpoch) };
}

/** The longest list (each epoch replays the one before it, then carries on); ties go to the later epoch. */
function furthest(byEpoch: Map<number, EventData['model_responded'][]>): EventData['model_responded'][] {
  let best: EventData['model_responded'][] = [];
  for (const epoch of [...byEpoch.keys()].sort((a, b) => a - b)) {
    const list = byEpoch.get(epoch) ?? [];
    if (list.length >= best.length) best = list;
  }
  return best;
}
