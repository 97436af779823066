import { randomUUID } from 'node:crypto';
import type { Checkpoint, EventName, GenerationEvent } from '@interlude/core';
import type { ClaimRecord, EventData, Job } from '@interlude/core/internal';

/** A fresh id that is also a valid subject token, so tests sharing one server never collide. */
export function uniqueId(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

const sampleData: { [Name in EventName]: EventData[Name] } = {
  started: { service: 'scripted', provider: 'scripted', model: 'm', action_name: 'handle', messages: [], params: null },
  model_responded: {
    messages: [],
    tool_calls: [],
    text: 'hello',
    finish_reason: 'stop',
    tool_turns: 0,
    tool_choice_cleared: false,
  },
  tool_completed: { tool_call_id: 'call_1', tool_name: 'lookup', result: { ok: true }, is_error: false },
  input_requested: {
    input_requests: [],
    tool_call_turn_size: 1,
    approval_tool_calls: [],
    approved_tool_calls: [],
    mcp_tool_calls: [],
    tool_turns: 1,
    tool_choice_cleared: false,
    claim_slot: 0,
  },
  tool_started: { tool_call_id: 'call_1', tool_name: 'lookup', attempt: 1 },
  resumed: { answered_tool_calls: ['call_1'], declined_tool_calls: [] },
  input_expired: {
    input_expires_at: '2026-01-01T00:00:00.000Z',
    unanswered_tool_calls: ['call_1'],
    answered_tool_calls: [],
  },
  cancelled: { reason: 'no longer needed', claim_slot: 0 },
  tool_turns_exceeded: { tool_turns: 25, max_tool_turns: 25, messages: [] },
  completed: { text: 'done', finish_reason: 'stop' },
  failed: { error: { name: 'Error', message: 'boom' } },
};

/** A well-formed transition with a deterministic id, as core would publish it. */
export function sampleEvent(
  generationId: string,
  index: number,
  event: EventName = 'model_responded',
  names: { agent?: string; action?: string; run?: string } = {},
): GenerationEvent {
  const run = names.run ?? 'start';
  return {
    version: 1,
    id: `${generationId}:${run}:${index}`,
    event,
    agent: names.agent ?? 'support',
    action: names.action ?? 'handle',
    generation_id: generationId,
    run,
    index,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    data: sampleData[event],
  } as GenerationEvent;
}

/** A paused generation's checkpoint, minimal but complete. */
export function sampleCheckpoint(generationId: string, toolTurns = 1): Checkpoint {
  return {
    version: 3,
    service: 'scripted',
    provider: 'scripted',
    model: 'm',
    action_name: 'handle',
    tool_turns: toolTurns,
    tool_choice_cleared: false,
    messages: [{ role: 'user', content: 'Resolve ticket 42' }],
    tool_call_turn_size: 1,
    completed_results: {},
    input_requests: [],
    approval_tool_calls: [],
    approved_tool_calls: [],
    mcp_tool_calls: [],
    agent: 'support',
    generation_id: generationId,
    claim_slot: 0,
  };
}

/** A claim-log record, as core writes one. */
export function sampleClaim(holder: string, overrides: Partial<ClaimRecord> = {}): ClaimRecord {
  return { version: 1, kind: 'claim', holder, epoch: 1, time: new Date().toISOString(), ...overrides };
}

/** A background resume job. */
export function sampleJob(overrides: Partial<Job> = {}): Job {
  const generationId = overrides.generation_id ?? uniqueId('gen');
  return {
    version: 1,
    id: uniqueId('job'),
    kind: 'resume',
    agent: 'support',
    action: 'handle',
    params: { ticketId: 42 },
    generation_id: generationId,
    answers: { call_1: true },
    ...overrides,
  };
}
