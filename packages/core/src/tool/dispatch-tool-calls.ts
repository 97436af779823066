import type { Checkpoint, CompletedResult } from '../checkpoint/checkpoint.js';
import type { StartedCall } from '../claims/recover-run.js';
import {
  answersOfDelegation,
  DelegatedPause,
  DelegatedResume,
  PATH_SEPARATOR,
  questionOfCaller,
} from '../delegation/nested-pause.js';
import { InputRequiredError } from '../errors/input-required-error.js';
import {
  type AskedInputRequestJSON,
  InputRequest,
  type InputRequestJSON,
  type JsonValue,
} from '../input-request/input-request.js';
import type { ToolCall } from '../provider/provider-adapter.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubError } from '../secrets/scrubbed-error.js';
import type { GenerationTrace } from '../telemetry/telemetry.js';
import { type ApprovalRule, evaluateGate } from './approval-rule.js';
import { idempotencyKeyOf } from './idempotency-key.js';
import type { Tool } from './tool.js';
import { runInToolScope } from './tool-context.js';

export const DECLINED_RESULT = { error: 'declined by user' } as const;
/** What the model reads for a call whose question nobody answered before its deadline. */
export const EXPIRED_RESULT = { error: 'no answer in time' } as const;

/** Everything one turn's dispatch needs to know; the same shape serves a fresh turn and a resume. */
export interface DispatchOptions {
  calls: readonly ToolCall[];
  tools: ReadonlyMap<string, Tool>;
  /** The action's approval rules by tool name; a tool's own rule applies where it has none. */
  approvalRules: ReadonlyMap<string, ApprovalRule>;
  /** Results already in hand (from before a pause, or recovered from the event log): not run again. */
  completed: Readonly<Record<string, CompletedResult>>;
  /** Results found in the event log of an interrupted run of this same resume: reused, not run again. */
  recovered?: Readonly<Record<string, CompletedResult>>;
  /** Answers to this turn's waiting calls, already validated. */
  answers: ReadonlyMap<string, unknown>;
  /**
   * Calls whose question nobody answered before its deadline (and that set no `onExpiry` answer):
   * their `false` is the deadline's, not a person's, so the model reads `EXPIRED_RESULT`.
   */
  expiredCalls?: ReadonlySet<string>;
  /** This resume was made by the pause's deadline: paused delegations resume the same way. */
  expiring?: boolean;
  /** Paused delegations of this turn (the checkpoint's `delegations`), by delegating call. */
  delegations?: Readonly<Record<string, Checkpoint>>;
  /** Calls that were waiting on an approval gate (from the checkpoint). */
  approvalCalls: ReadonlySet<string>;
  /** Paused calls that go to an MCP server (from the checkpoint). */
  mcpCalls?: ReadonlySet<string>;
  /** Calls past their gate (approved by a person, or let through by its rule): not gated again. */
  approvedCalls: ReadonlySet<string>;
  /**
   * Calls whose waiting request was a secret, with that request: their answers join the scrubber
   * before the tool runs (keys its schema declares are the tool's words, not the secret).
   */
  secretCalls: ReadonlyMap<string, InputRequestJSON>;
  /** The questions this turn waited on (the checkpoint's); outcome-unknown ones are recognised here. */
  waiting?: readonly AskedInputRequestJSON[];
  scrubber: Scrubber;
  generationId: string;
  resuming: boolean;
  signal: AbortSignal;
  trace?: GenerationTrace;
  /** Called after each call finishes, in call order, awaited. */
  onCompleted?: (callId: string, result: CompletedResult) => Promise<void>;
  onInputRequest?: (request: AskedInputRequestJSON) => void;
  /**
   * Awaited before each tool body runs, once its arguments parsed: where the run stores the
   * call's intent (`tool_started`) and everything logged before it. A rejection stops the turn.
   */
  onStarting?: (call: ToolCall, start: ToolStart) => Promise<void>;
  /**
   * Calls an earlier holder of this run started and logged no result for: whether they took
   * effect is unknown. An `idempotent` tool runs again; any other asks a person first.
   */
  started?: ReadonlyMap<string, StartedCall>;
  /** Why those calls stopped, for the question: a worker that went away, or a run that failed. */
  stoppedBy?: 'worker_lost' | 'run_failed';
}

/** How a tool body starts: the first time, or again after an unknown outcome. */
export interface ToolStart {
  attempt: number;
  reason?: 'outcome_unknown';
}

/** What a confirm about an unknown outcome carries in its metadata (see `outcomeUnknownRequest`). */
export interface OutcomeUnknownMetadata {
  outcome_unknown: true;
  /** How many times the call was started. */
  attempts: number;
  /** The answer the call ran with, when there was one and it was not a secret: it runs again with it. */
  answer?: JsonValue;
}

export interface DispatchResult {
  completed: Record<string, CompletedResult>;
  inputRequests: AskedInputRequestJSON[];
  approvalToolCalls: string[];
  approvedToolCalls: string[];
  mcpToolCalls: string[];
  /** Delegations left paused, with the delegated generation's checkpoint. */
  delegations: Record<string, Checkpoint>;
}

/**
 * Runs one turn of tool calls in the order the model asked for them. Every call that does not ask
 * runs once; a gated call waits for approval before it runs; a call that returns an
 * `InputRequest` waits for its answer. Exported for providers that run their own loop.
 */
export async function dispatchToolCalls(options: DispatchOptions): Promise<DispatchResult> {
  const completed: Record<string, CompletedResult> = { ...options.completed };
  const result: DispatchResult = {
    completed,
    inputRequests: [],
    approvalToolCalls: [],
    approvedToolCalls: [],
    mcpToolCalls: [],
    delegations: {},
  };
  const approved = new Set(options.approvedCalls);
  // Calls a rule let through: recorded with the approved ones when they end the turn waiting on
  // their own question, so a resume keeps the decision instead of asking the rule again.
  const passed: string[] = [];
  const reruns = outcomeUnknownWaits(options.waiting ?? []);
  for (const call of options.calls) {
    if (completed[call.id] !== undefined) continue;
    const recovered = options.recovered?.[call.id];
    if (recovered !== undefined) {
      await finish(call, recovered);
      continue;
    }
    const answer = options.answers.get(call.id);
    const wasAwaitingApproval = options.approvalCalls.has(call.id);
    const tool = options.tools.get(call.name);
    if (answer === false) {
      const refusal = options.expiredCalls?.has(call.id) === true ? EXPIRED_RESULT : DECLINED_RESULT;
      await finish(call, { tool_name: call.name, result: refusal, is_error: true });
      continue;
    }
    // A person said to run again a call whose outcome was unknown: as it first ran, answer included.
    const rerun = reruns.get(call.id);
    const delegation = options.delegations?.[call.id];
    let runAnswer: unknown;
    let secret = false;
    if (rerun === undefined && delegation !== undefined && !answersDelegation(call.id)) {
      // None of its questions answered: it stays paused as it was, asking them again.
      keepDelegationPaused(call.id, delegation);
      continue;
    }
    if (rerun === undefined && delegation !== undefined) {
      // A paused delegation went through its gate when it first ran: it resumes with its answers.
      runAnswer = new DelegatedResume(
        delegation,
        answersOfDelegation(options.answers, call.id),
        options.expiring === true,
      );
      secret = addDelegatedSecrets(call.id);
    } else if (rerun === undefined) {
      if (wasAwaitingApproval && answer === true) approved.add(call.id);
      // A call an earlier holder started went through its gate then: it is not gated again.
      if (!approved.has(call.id) && options.started?.has(call.id) !== true) {
        const gate = await evaluateGate(call, tool, options.approvalRules);
        if (gate.kind === 'ask') {
          ask(call, tool, gate.request, true);
          continue;
        }
        if (gate.kind === 'fail') {
          await finish(call, errorResult(call, options.scrubber.text(gate.message)));
          continue;
        }
        if (gate.kind === 'pass') passed.push(call.id);
      }
      runAnswer = wasAwaitingApproval ? undefined : answer;
      const secretRequest = options.secretCalls.get(call.id);
      secret = secretRequest !== undefined;
      if (secretRequest !== undefined && runAnswer !== undefined) options.scrubber.add(runAnswer, secretRequest.schema);
    } else {
      runAnswer = rerun.answer;
    }
    if (tool === undefined) {
      const message = options.mcpCalls?.has(call.id)
        ? `${call.name} is no longer offered by its MCP server`
        : `Unknown tool: ${call.name}`;
      await finish(call, errorResult(call, message));
      continue;
    }
    const started = options.started?.get(call.id);
    if (started !== undefined && tool.idempotent !== true) {
      // A delegation's resume carries its answers and checkpoint: never copied into a question.
      const carried = secret || DelegatedResume.isInstance(runAnswer) ? undefined : runAnswer;
      ask(call, tool, outcomeUnknownRequest(call, started, carried, options.stoppedBy ?? 'worker_lost'), false);
      continue;
    }
    const attemptsBefore = Math.max(started?.attempts ?? 0, rerun?.attempts ?? 0);
    await settle(
      call,
      tool,
      runAnswer,
      attemptsBefore === 0 ? { attempt: 1 } : { attempt: attemptsBefore + 1, reason: 'outcome_unknown' },
    );
  }
  for (const callId of passed) if (completed[callId] === undefined) approved.add(callId);
  result.approvedToolCalls = [...approved];
  return result;

  async function settle(call: ToolCall, tool: Tool, toolAnswer: unknown, start: ToolStart): Promise<void> {
    const outcome = await runOne(call, tool, toolAnswer, start, options);
    if (InputRequest.isInstance(outcome)) ask(call, tool, outcome, false);
    else if (DelegatedPause.isInstance(outcome)) askForDelegation(call, outcome);
    else await finish(call, outcome);
  }

  /** The delegated generation paused: its questions are this turn's, under this call's id. */
  function askForDelegation(call: ToolCall, pause: DelegatedPause): void {
    result.delegations[call.id] = pause.checkpoint;
    for (const request of pause.requests) {
      const json = options.scrubber.inputRequest(questionOfCaller(request, call, pause));
      result.inputRequests.push(json);
      options.onInputRequest?.(json);
    }
  }

  /** Whether this resume answers any question of the delegation (a deadline answers them all). */
  function answersDelegation(callId: string): boolean {
    if (options.expiring === true) return true;
    const prefix = `${callId}${PATH_SEPARATOR}`;
    for (const [id, answer] of options.answers) if (answer !== undefined && id.startsWith(prefix)) return true;
    return false;
  }

  function keepDelegationPaused(callId: string, checkpoint: Checkpoint): void {
    result.delegations[callId] = checkpoint;
    for (const request of options.waiting ?? []) {
      if (!(request.tool_call_id as string).startsWith(`${callId}${PATH_SEPARATOR}`)) continue;
      result.inputRequests.push(request);
      options.onInputRequest?.(request);
    }
  }

  /** Secret answers bound for a delegated generation join this one's scrubber too, before it resumes. */
  function addDelegatedSecrets(callId: string): boolean {
    let any = false;
    for (const request of options.waiting ?? []) {
      const id = request.tool_call_id as string;
      if (request.kind !== 'secret' || !id.startsWith(`${callId}${PATH_SEPARATOR}`)) continue;
      const answer = options.answers.get(id);
      if (answer === undefined || answer === false) continue;
      options.scrubber.add(answer, request.schema);
      any = true;
    }
    return any;
  }

  function ask(call: ToolCall, tool: Tool | undefined, request: InputRequest, isApproval: boolean): void {
    const json = options.scrubber.inputRequest(request.forCall(call).toJSON());
    if (isApproval) {
      // A span for the call held at the gate, so a trace shows which call waits on approval.
      options.trace
        ?.startToolCall({ toolName: call.name, toolCallId: call.id, arguments: options.scrubber.value(call.arguments) })
        .end({ awaitingInput: true });
    }
    result.inputRequests.push(json);
    if (isApproval) result.approvalToolCalls.push(call.id);
    if (tool?.mcpServer !== undefined) result.mcpToolCalls.push(call.id);
    options.onInputRequest?.(json);
  }

  async function finish(call: ToolCall, completedResult: CompletedResult): Promise<void> {
    completed[call.id] = completedResult;
    await options.onCompleted?.(call.id, completedResult);
  }
}

/**
 * The question a call with an unknown outcome becomes: the worker running it went away (or its
 * run failed) after it started and before its result was logged, so nobody can say whether it
 * took effect. `true` runs it again, with the answer it first ran with; `false` declines it.
 */
export function outcomeUnknownRequest(
  call: ToolCall,
  started: StartedCall,
  answer: unknown,
  stoppedBy: 'worker_lost' | 'run_failed',
): InputRequest {
  const where = stoppedBy === 'worker_lost' ? 'on a worker that went away' : 'in a run that failed';
  const metadata: OutcomeUnknownMetadata = {
    outcome_unknown: true,
    attempts: started.attempts,
    ...(answer !== undefined && { answer: answer as JsonValue }),
  };
  return InputRequest.confirm(`${call.name} stopped mid-call ${where}; run it again?`, {
    metadata: metadata as unknown as Record<string, JsonValue>,
  });
}

/** The calls a checkpoint holds outcome-unknown questions for, with what they ran with. */
function outcomeUnknownWaits(waiting: readonly InputRequestJSON[]): Map<string, { attempts: number; answer: unknown }> {
  const reruns = new Map<string, { attempts: number; answer: unknown }>();
  for (const request of waiting) {
    const metadata = request.metadata as Partial<OutcomeUnknownMetadata> | undefined;
    if (metadata?.outcome_unknown !== true || request.tool_call_id === undefined) continue;
    const attempts = typeof metadata.attempts === 'number' && metadata.attempts >= 1 ? metadata.attempts : 1;
    reruns.set(request.tool_call_id, { attempts, answer: metadata.answer });
  }
  return reruns;
}

function errorResult(call: ToolCall, message: string): CompletedResult {
  return { tool_name: call.name, result: { error: message }, is_error: true };
}

async function runOne(
  call: ToolCall,
  tool: Tool,
  answer: unknown,
  start: ToolStart,
  options: DispatchOptions,
): Promise<CompletedResult | InputRequest | DelegatedPause> {
  const span = options.trace?.startToolCall({
    toolName: call.name,
    toolCallId: call.id,
    arguments: options.scrubber.value(call.arguments),
  });
  const parsed = tool.parse(call.arguments);
  if (!parsed.success) {
    const failed = errorResult(call, options.scrubber.text(parsed.error));
    span?.end({ result: failed.result, isError: true });
    return failed;
  }
  try {
    await options.onStarting?.(call, start);
  } catch (error) {
    // The intent could not be stored (or the run was fenced out): the body must not run, and the turn stops.
    span?.fail(scrubError(error, options.scrubber));
    throw error;
  }
  const context = {
    answer,
    toolCallId: call.id,
    resuming: options.resuming,
    // Read when the tool reads it: a run without a caller's signal makes one only then.
    get signal() {
      return options.signal;
    },
    generationId: options.generationId,
    idempotencyKey: idempotencyKeyOf(options.generationId, call.id),
  };
  const scope = { toolCallId: call.id, answers: new Map(answer === undefined ? [] : [[call.id, answer]]) };
  try {
    const body = () => runInToolScope(scope, () => tool.run(parsed.data, context));
    const value = await (span ? span.runInContext(body) : body());
    if (InputRequest.isInstance(value) || DelegatedPause.isInstance(value)) {
      span?.end({ awaitingInput: true });
      return value;
    }
    const scrubbed = options.scrubber.value(value === undefined ? null : value);
    span?.end({ result: scrubbed, isError: false });
    return { tool_name: call.name, result: scrubbed, is_error: false };
  } catch (error) {
    const safe = scrubError(error, options.scrubber);
    span?.fail(safe);
    // A delegation told to raise stops the whole generation rather than informing the model.
    if (InputRequiredError.isInstance(error)) throw safe;
    return errorResult(call, safe.message);
  }
}
