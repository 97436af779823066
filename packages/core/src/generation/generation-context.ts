import type { Checkpoint, CompletedResult } from '../checkpoint/checkpoint.js';
import type { AskedInputRequestJSON } from '../input-request/input-request-json.js';
import type {
  FinishReason,
  ModelResponse,
  ProviderMessage,
  ToolCall,
  ToolChoice,
} from '../provider/provider-adapter.js';

/**
 * The generation machine's context: plain JSON, the same facts a checkpoint holds plus the
 * bookkeeping of the run in progress. Answers are never in it (they may be secret): they travel
 * on the RESUME event to the actor that uses them.
 *
 * Keep it under 20 top-level keys: XState copies the context with `Object.assign({}, …)` on every
 * assign, and V8 turns an object built that way with 20 keys or more into a dictionary, which
 * made each copy (and each read after it) about 15 times slower. What does not change during a
 * run is grouped in `identity` and `limits`.
 */
export interface GenerationContext {
  identity: GenerationIdentity;
  limits: RunLimits;
  messages: ProviderMessage[];
  /**
   * How many of `messages` an event has carried: those after it are unreported (the turn's results,
   * until the next model response's event carries them). A count rather than a list, so a step
   * copies no array to keep it.
   */
  reportedTo: number;
  toolTurns: number;
  toolChoice: ToolChoice | undefined;
  toolChoiceCleared: boolean;
  continuations: number;
  /** The tool-call turn in progress: its calls and how many trailing messages hold it. */
  turnCalls: ToolCall[];
  toolCallTurnSize: number;
  completedResults: Record<string, CompletedResult>;
  inputRequests: AskedInputRequestJSON[];
  approvalToolCalls: string[];
  approvedToolCalls: string[];
  mcpToolCalls: string[];
  /** Paused delegations of the turn: the delegated generation's checkpoint by delegating call. */
  delegations: Record<string, Checkpoint>;
  lastResponse: LastResponse | undefined;
  /** What the last model response led to (`decide`). */
  decision: 'continue' | 'tools' | 'exceeded' | 'done' | undefined;
  error: { name: string; message: string; code?: string } | undefined;
}

/** Which generation this is, and what it was started with: fixed for its whole life. */
export interface GenerationIdentity {
  agent: string;
  generationId: string;
  actionName: string;
  service: string;
  provider: string;
  model: string;
  /**
   * The conversation it inherited when it started (a job's, or the generation it ran inside's),
   * when its agent names none and it is not the generation id: its checkpoint and `started`
   * event carry it, so every run of the generation joins it.
   */
  conversationId?: string;
}

/** The resumed (or fresh) action's limits: fixed for one run. */
export interface RunLimits {
  maxToolTurns: number;
  maxContinuations: number;
}

export interface LastResponse {
  /** This response's text. */
  text: string;
  /** The text of the whole model turn, continuations included (`turnTextOf`). */
  turnText: string;
  /** Where in `messages` the messages its `model_responded` event carries start (they end at `reportedTo`). */
  reportFrom: number;
  /** The provider paused its own turn and asked to be continued. */
  continuation?: true;
  finishReason: FinishReason;
  rawFinishReason?: string;
  toolCalls: ToolCall[];
  usage?: ModelResponse['usage'];
  responseId?: string;
}

/** What a run is started with; the rest of a context starts at rest unless given. */
export type StartingFacts = Pick<GenerationContext, 'identity' | 'limits' | 'messages' | 'toolChoice'> &
  Partial<GenerationContext>;

/**
 * A context at rest: no turn in progress, no question waiting, nothing reported, no response yet,
 * with what the run was started with on top (a fresh run's user turn, or a checkpoint's facts).
 */
export function startingContext(facts: StartingFacts): GenerationContext {
  return {
    reportedTo: facts.messages.length,
    toolTurns: 0,
    toolChoiceCleared: false,
    continuations: 0,
    turnCalls: [],
    toolCallTurnSize: 0,
    completedResults: {},
    inputRequests: [],
    approvalToolCalls: [],
    approvedToolCalls: [],
    mcpToolCalls: [],
    delegations: {},
    lastResponse: undefined,
    decision: undefined,
    error: undefined,
    ...facts,
  };
}

/** The choice sent with the next request: a forced choice until the model has used it. */
export function effectiveToolChoice(context: GenerationContext): ToolChoice | undefined {
  if (context.toolChoiceCleared && isForced(context.toolChoice)) return undefined;
  return context.toolChoice;
}

function isForced(choice: ToolChoice | undefined): boolean {
  return choice === 'required' || typeof choice === 'object';
}

/** What a model response leads to: more tools, another call, or the end. */
export function decide(
  context: GenerationContext,
  response: ModelResponse,
): NonNullable<GenerationContext['decision']> {
  if (response.toolCalls.length > 0) return context.toolTurns >= context.limits.maxToolTurns ? 'exceeded' : 'tools';
  if (response.continuation === true && context.continuations < context.limits.maxContinuations) return 'continue';
  return 'done';
}

/**
 * Folds one model response into the context, with what it leads to, and marks every message so far
 * reported: the `model_responded` event published on the same transition carries the unreported
 * ones (`lastResponse.reportFrom` to `reportedTo`).
 */
export function applyModelResponse(context: GenerationContext, response: ModelResponse): Partial<GenerationContext> {
  const messages = context.messages.concat(response.messages);
  const lastResponse: LastResponse = {
    text: response.text,
    turnText: turnTextOf(context, response),
    reportFrom: context.reportedTo,
    ...(response.continuation === true && { continuation: true as const }),
    finishReason: response.finishReason,
    toolCalls: response.toolCalls,
    ...(response.rawFinishReason !== undefined && { rawFinishReason: response.rawFinishReason }),
    ...(response.usage !== undefined && { usage: response.usage }),
    ...(response.responseId !== undefined && { responseId: response.responseId }),
  };
  const usedForcedTool =
    isForced(context.toolChoice) && response.toolCalls.some((call) => matchesChoice(context.toolChoice, call));
  const toolChoiceCleared = context.toolChoiceCleared || usedForcedTool;
  const base = {
    messages,
    reportedTo: messages.length,
    lastResponse,
    toolChoiceCleared,
    completedResults: {},
    inputRequests: [],
  };
  const decision = decide(context, response);
  switch (decision) {
    case 'exceeded':
      return { ...base, decision, continuations: 0 };
    case 'tools':
      return {
        ...base,
        decision,
        toolTurns: context.toolTurns + 1,
        turnCalls: response.toolCalls,
        toolCallTurnSize: response.messages.length,
        approvalToolCalls: [],
        approvedToolCalls: [],
        mcpToolCalls: [],
        delegations: {},
        continuations: 0,
      };
    case 'continue':
      return { ...base, decision, continuations: context.continuations + 1 };
    case 'done':
      return { ...base, decision };
  }
}

function matchesChoice(choice: ToolChoice | undefined, call: ToolCall): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice.name === call.name);
}

/**
 * The text of the model turn a response belongs to. A provider that pauses its own turn (Anthropic
 * `pause_turn` on server tools) answers one turn in several responses, which the loop follows as
 * continuations; the turn's text is all of theirs, in order, as a stream delivers it. Any other
 * response starts a turn of its own.
 */
export function turnTextOf(context: GenerationContext, response: ModelResponse): string {
  const continues = context.decision === 'continue' && context.lastResponse !== undefined;
  return continues ? `${context.lastResponse?.turnText ?? ''}${response.text}` : response.text;
}
