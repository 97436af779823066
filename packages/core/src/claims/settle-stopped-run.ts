import type { AgentBase } from '../agent/agent-types.js';
import type { ClaimRecord } from '../bus/bus.js';
import { EVENT_VERSION, type EventData, type EventName, type GenerationEvent } from '../bus/events.js';
import { epochOf } from '../bus/latest-epochs.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { withCheckpointDefaults } from '../checkpoint/checkpoint-defaults.js';
import { eventIdOf } from '../generation/event-publisher.js';
import { notifyInputRequest } from '../generation/notify-input-request.js';
import { InputRequest } from '../input-request/input-request.js';
import { forgetWaiting, recordWaiting } from '../waiting/record-waiting.js';
import { signedClaims } from './signed-claims.js';

/** Which run a stopped job held, as its events name it. */
export interface StoppedRun {
  agent: AgentBase;
  action: string;
  params: unknown;
  generationId: string;
  run: string;
  /** The stop its holder wrote to the claim log. */
  record: ClaimRecord;
}

/**
 * Another delivery of a job whose run already stopped runs nothing; it only makes sure the stop
 * is out, in case its holder went away between writing it and announcing it. A pause that still
 * waits (not resumed, no newer one stored): its checkpoint stored, listed as pending and its
 * deadline timed, and `input_requested` published, with the agent's callbacks, if it was not; a
 * pause resumed meanwhile is left alone, never announced after what followed it. A finish: `completed` (or the `failed` a
 * permanent failure ended it with) published if it was not. Published events reuse the ids their
 * holder would have given them, so two deliveries doing this at once store each once.
 */
export async function settleStoppedRun(stopped: StoppedRun): Promise<void> {
  const { record } = stopped;
  if (record.kind === 'paused' && record.checkpoint !== undefined) await settlePause(stopped, record.checkpoint);
  if (record.kind === 'finished' && record.holder !== '') await settleFinish(stopped);
}

async function settlePause(stopped: StoppedRun, written: Checkpoint): Promise<void> {
  const bus = stopped.agent.runtime.bus;
  // Stored and sent as written (its signature covers that form); read with its defaults.
  const checkpoint = withCheckpointDefaults(written);
  const slot = checkpoint.claim_slot;
  const stored = await bus.checkpoints.load(stopped.generationId);
  const newer = ((stored && withCheckpointDefaults(stored.checkpoint).claim_slot) ?? -1) > slot;
  const resumed = (await signedClaims(stopped.agent.runtime).read(stopped.generationId, slot)).record !== undefined;
  // Resumed already (by id, from the stored checkpoint or the pending list), or moved past: its
  // holder's successor owns the generation, and announcing this pause now would put an old
  // question after a newer one, or after the end, and call `onInputRequest` for nothing.
  if (newer || resumed) return;
  // Listed and timed again too (both write the same record twice harmlessly): the holder may have
  // gone before either, and a question nobody lists or expires would wait for good.
  await Promise.all([
    bus.checkpoints.save(stopped.generationId, { checkpoint: written, params: stopped.params }),
    recordWaiting(bus, written),
  ]);
  const events = await runEvents(stopped);
  if (events.some((event) => event.event === 'input_requested')) return;
  await publish(stopped, events, 'input_requested', {
    input_requests: checkpoint.input_requests,
    tool_call_turn_size: checkpoint.tool_call_turn_size,
    approval_tool_calls: checkpoint.approval_tool_calls,
    approved_tool_calls: checkpoint.approved_tool_calls,
    mcp_tool_calls: checkpoint.mcp_tool_calls,
    ...(checkpoint.delegations !== undefined &&
      Object.keys(checkpoint.delegations).length > 0 && { delegations: checkpoint.delegations }),
    tool_turns: checkpoint.tool_turns,
    tool_choice_cleared: checkpoint.tool_choice_cleared,
    claim_slot: slot,
    ...(checkpoint.traceparent !== undefined && { traceparent: checkpoint.traceparent }),
  });
  const requests = checkpoint.input_requests.map((request) => InputRequest.fromJSON(request));
  // A fresh generation's run is named `start`; any other run resumed a checkpoint.
  const resuming = stopped.run !== 'start';
  await notifyInputRequest(stopped.agent, stopped.action, stopped.params, requests, written, resuming);
}

async function settleFinish(stopped: StoppedRun): Promise<void> {
  // A resumed run's pause may still be listed: its holder drops the entry without waiting for it.
  if (stopped.run !== 'start') await forgetWaiting(stopped.agent.runtime.bus, stopped.generationId);
  const events = await runEvents(stopped);
  if (events.some((event) => event.event === 'completed' || event.event === 'failed')) return;
  if (stopped.record.error !== undefined) {
    await publish(stopped, events, 'failed', { error: stopped.record.error });
    return;
  }
  const last = events.findLast((event) => event.event === 'model_responded');
  if (last?.event !== 'model_responded') return;
  await publish(stopped, events, 'completed', {
    text: last.data.text,
    finish_reason: last.data.finish_reason,
    ...(last.data.raw_finish_reason !== undefined && { raw_finish_reason: last.data.raw_finish_reason }),
  });
}

/** The stopped holder's own events of the run (its epoch), in order. */
async function runEvents(stopped: StoppedRun): Promise<GenerationEvent[]> {
  const events = await stopped.agent.runtime.bus.events(stopped.generationId, { everyEpoch: true });
  return events.filter((event) => event.run === stopped.run && epochOf(event) === stopped.record.epoch);
}

async function publish<Name extends EventName>(
  stopped: StoppedRun,
  events: readonly GenerationEvent[],
  name: Name,
  data: EventData[Name],
): Promise<void> {
  const index = events.reduce((highest, event) => Math.max(highest, event.index + 1), 0);
  const identity = { generationId: stopped.generationId, run: stopped.run, epoch: stopped.record.epoch };
  const id = eventIdOf(identity, index);
  await stopped.agent.runtime.bus.publish({
    version: EVENT_VERSION,
    id: name === 'failed' ? `${id}:failed:settled` : id,
    event: name,
    agent: stopped.agent.name,
    action: stopped.action,
    generation_id: stopped.generationId,
    run: stopped.run,
    index,
    ...(stopped.record.epoch !== 1 && { epoch: stopped.record.epoch }),
    time: new Date().toISOString(),
    data,
  } as GenerationEvent);
}
