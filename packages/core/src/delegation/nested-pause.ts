import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { AskedInputRequestJSON, DelegationStep } from '../input-request/input-request-json.js';

/**
 * What a delegation under `onExceeded: 'pause'` returns when the delegated generation paused: its
 * checkpoint and questions. The calling generation pauses on them (`dispatchToolCalls`), keeping
 * the checkpoint in its own (`delegations`) and asking the questions as its own, prefixed.
 */
export class DelegatedPause {
  constructor(
    readonly checkpoint: Checkpoint,
    readonly requests: readonly AskedInputRequestJSON[],
    readonly delegate: Pick<DelegationStep, 'agent' | 'action'>,
  ) {}

  static isInstance(value: unknown): value is DelegatedPause {
    return value instanceof DelegatedPause;
  }
}

/**
 * What a paused delegation's tool body is given as `ctx.answer` when its caller resumes: the
 * delegated generation's checkpoint and the answers to its questions, under its own ids. A resume
 * its deadline made says so, so the delegated generation meets its own deadline too.
 */
export class DelegatedResume {
  constructor(
    readonly checkpoint: Checkpoint,
    readonly answers: Record<string, unknown>,
    readonly expiring: boolean,
  ) {}

  static isInstance(value: unknown): value is DelegatedResume {
    return value instanceof DelegatedResume;
  }
}

/** The separator between the delegating calls' ids and the asking call's in a tree-unique id. */
export const PATH_SEPARATOR = '/';

/** A delegated question as its caller asks it: the delegating call's id in front, the step first in its path. */
export function questionOfCaller(
  request: AskedInputRequestJSON,
  call: { id: string; name: string },
  pause: DelegatedPause,
): AskedInputRequestJSON {
  const step: DelegationStep = { tool_call_id: call.id, tool_name: call.name, ...pause.delegate };
  return {
    ...request,
    tool_call_id: `${call.id}${PATH_SEPARATOR}${request.tool_call_id}`,
    path: [step, ...(request.path ?? [])],
  };
}

/** The answers of a caller's resume that belong to one delegating call, under the delegated generation's ids. */
export function answersOfDelegation(answers: ReadonlyMap<string, unknown>, callId: string): Record<string, unknown> {
  const prefix = `${callId}${PATH_SEPARATOR}`;
  const own: Record<string, unknown> = {};
  for (const [id, answer] of answers) if (id.startsWith(prefix)) own[id.slice(prefix.length)] = answer;
  return own;
}
