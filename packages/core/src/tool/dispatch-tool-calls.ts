import type { CompletedResult } from '../checkpoint/checkpoint.js';
import { InputRequiredError } from '../errors/input-required-error.js';
import { InputRequest, type InputRequestJSON } from '../input-request/input-request.js';
import type { ToolCall } from '../provider/provider-adapter.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubError } from '../secrets/scrubbed-error.js';
import type { GenerationTrace } from '../telemetry/telemetry.js';
import type { Tool } from './tool.js';
import { runInToolScope } from './tool-context.js';

export const DECLINED_RESULT = { error: 'declined by user' } as const;

/** Everything one turn's dispatch needs to know; the same shape serves a fresh turn and a resume. */
export interface DispatchOptions {
  calls: readonly ToolCall[];
  tools: ReadonlyMap<string, Tool>;
  /** Tool names the action gates behind approval. */
  gatedTools: ReadonlySet<string>;
  /** Results already in hand (from before a pause, or recovered from the event log): not run again. */
  completed: Readonly<Record<string, CompletedResult>>;
  /** Results found in the event log of an interrupted run of this same resume: reused, not run again. */
  recovered?: Readonly<Record<string, CompletedResult>>;
  /** Answers to this turn's waiting calls, already validated. */
  answers: ReadonlyMap<string, unknown>;
  /** Calls that were waiting on an approval gate (from the checkpoint). */
  approvalCalls: ReadonlySet<string>;
  /** Paused calls that go to an MCP server (from the checkpoint). */
  mcpCalls?: ReadonlySet<string>;
  /** Calls approved earlier: they are not gated again. */
  approvedCalls: ReadonlySet<string>;
  /**
   * Calls whose waiting request was a secret, with that request: their answers join the scrubber
   * before the tool runs (keys its schema declares are the tool's words, not the secret).
   */
  secretCalls: ReadonlyMap<string, InputRequestJSON>;
  scrubber: Scrubber;
  generationId: string;
  resuming: boolean;
  signal: AbortSignal;
  trace?: GenerationTrace;
  /** Called after each call finishes, in call order; awaited, so its event is stored before the next call runs. */
  onCompleted?: (callId: string, result: CompletedResult) => Promise<void>;
  onInputRequest?: (request: InputRequestJSON) => void;
}

export interface DispatchResult {
  completed: Record<string, CompletedResult>;
  inputRequests: InputRequestJSON[];
  approvalToolCalls: string[];
  approvedToolCalls: string[];
  mcpToolCalls: string[];
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
  };
  const approved = new Set(options.approvedCalls);
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
      await finish(call, { tool_name: call.name, result: DECLINED_RESULT, is_error: true });
      continue;
    }
    if (wasAwaitingApproval && answer === true) approved.add(call.id);
    const gated = (options.gatedTools.has(call.name) || tool?.requiresApproval === true) && !approved.has(call.id);
    if (gated) {
      ask(call, tool, approvalRequest(call), true);
      continue;
    }
    if (tool === undefined) {
      const message = options.mcpCalls?.has(call.id)
        ? `${call.name} is no longer offered by its MCP server`
        : `Unknown tool: ${call.name}`;
      await finish(call, errorResult(call, message));
      continue;
    }
    const toolAnswer = wasAwaitingApproval ? undefined : answer;
    const secretRequest = options.secretCalls.get(call.id);
    if (secretRequest !== undefined && toolAnswer !== undefined) options.scrubber.add(toolAnswer, secretRequest.schema);
    const outcome = await runOne(call, tool, toolAnswer, options);
    if (InputRequest.isInstance(outcome)) ask(call, tool, outcome, false);
    else await finish(call, outcome);
  }
  result.approvedToolCalls = [...approved];
  return result;

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

function approvalRequest(call: ToolCall): InputRequest {
  return InputRequest.confirm(`Allow ${call.name} to run?`, { metadata: { approval: true } });
}

function errorResult(call: ToolCall, message: string): CompletedResult {
  return { tool_name: call.name, result: { error: message }, is_error: true };
}

async function runOne(
  call: ToolCall,
  tool: Tool,
  answer: unknown,
  options: DispatchOptions,
): Promise<CompletedResult | InputRequest> {
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
  const context = {
    answer,
    toolCallId: call.id,
    resuming: options.resuming,
    // Read when the tool reads it: a run without a caller's signal makes one only then.
    get signal() {
      return options.signal;
    },
    generationId: options.generationId,
  };
  const scope = { toolCallId: call.id, answers: new Map(answer === undefined ? [] : [[call.id, answer]]) };
  try {
    const body = () => runInToolScope(scope, () => tool.run(parsed.data, context));
    const value = await (span ? span.runInContext(body) : body());
    if (InputRequest.isInstance(value)) {
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
