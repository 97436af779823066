import type { Bus } from '../bus/bus.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { ContextBinding } from '../context/has-context.js';
import type { GenerationResponse } from '../generation/generation-response.js';
import type { Generation } from '../generation/generation-types.js';
import type { InputRequest } from '../input-request/input-request.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { AnswerTokenOptions } from '../trust/answer-token.js';
import type { CheckpointKeys } from '../trust/checkpoint-keys.js';
import type { PendingFilter, PendingGeneration } from '../waiting/pending-generation.js';
import type { ActionFunction } from './action.js';

/** What an `onInputRequest` callback learns about a pause. */
export interface InputRequestInfo {
  agent: string;
  action: string;
  generationId: string;
  params: unknown;
  checkpoint: Checkpoint;
  /**
   * True when the pause was reached while resuming a checkpoint (a tool asked again, or another
   * call asked after the answered one ran), false on the generation's first pause. A callback that
   * notifies a person once per generation, or counts how often one was asked, tells them apart here.
   */
  resuming: boolean;
}

export type InputRequestCallback = (requests: InputRequest[], info: InputRequestInfo) => void | Promise<void>;

/** A callback, optionally limited to some actions (`only`) or all but some (`except`). */
export type InputRequestCallbackEntry =
  | InputRequestCallback
  | { handler: InputRequestCallback; only?: readonly string[]; except?: readonly string[] };

export interface AgentConfig<Actions extends Record<string, ActionFunction>> {
  name: string;
  /** Binds the bus, telemetry and checkpoint key; the embedded defaults when omitted. */
  runtime?: Runtime;
  provider: ProviderAdapter;
  instructions?: string;
  actions: Actions;
  onInputRequest?: InputRequestCallbackEntry | readonly InputRequestCallbackEntry[];
  /** Persist conversations across generations: `hasContext(store, { contextual })`. */
  context?: ContextBinding;
  /**
   * The app's conversation a generation belongs to (a chat thread, a ticket), from its params:
   * traces carry it as `gen_ai.conversation.id` on every span of every run. Computed from the
   * params on each run, so a resume in another process finds the same one without storing it.
   * The generation id when not given.
   */
  conversationId?: (params: Parameters<Actions[keyof Actions]>[0]) => string;
}

/** The parts of an agent that generations and workers use. */
export interface AgentBase {
  readonly name: string;
  readonly runtime: Runtime;
  readonly provider: ProviderAdapter;
  readonly instructions: string | undefined;
  readonly actions: Readonly<Record<string, ActionFunction>>;
  readonly inputRequestCallbacks: readonly InputRequestCallbackEntry[];
  readonly context: ContextBinding | undefined;
  /** The conversation id of a generation with these params (`AgentConfig.conversationId`). */
  readonly conversationId?: ((params: unknown) => string) | undefined;
  /** A generation of any action by name: what workers and `runtime.answer` use. */
  generation(actionName: string, params: unknown): Generation;
}

/** An action without params can be called with none. */
type ActionArgs<Action extends ActionFunction> =
  Parameters<Action> extends [] ? [params?: unknown] : [params: Parameters<Action>[0]];

/** An agent: one method per action, each returning a `Generation`. */
export type Agent<Actions extends Record<string, ActionFunction> = Record<string, ActionFunction>> = AgentBase & {
  readonly [Name in keyof Actions]: (...args: ActionArgs<Actions[Name]>) => Generation;
};

/** The shared pieces a set of agents runs on. */
export interface Runtime {
  readonly bus: Bus;
  readonly telemetry: Telemetry | undefined;
  /**
   * Sign checkpoints, jobs and events (HMAC-SHA256), and refuse unsigned or altered ones.
   * Undefined only when signing was turned off (`checkpointKey: false`).
   */
  readonly keys: CheckpointKeys | undefined;
  /** Checkpoints expire this long after their pause; undefined: never. */
  readonly checkpointTtlMs: number | undefined;
  /**
   * The deployment checkpoints are signed for: the `audience` option, `INTERLUDE_AUDIENCE`, or the
   * bus's deployment id (undefined on a bus that never leaves the process).
   */
  audience(): Promise<string | undefined>;
  /** Agents defined with this runtime, by name. */
  readonly agents: ReadonlyMap<string, AgentBase>;
  /**
   * Called by `defineAgent`. Defining an agent again under a name already used replaces the
   * earlier definition for every lookup by name — `agents`, `answer()`, `answerLater()`, workers
   * without an `agents` list — while generations already running, and agent objects still held,
   * keep the definition they were made from. A checkpoint names its agent, not a definition, so
   * a rebuilt agent (a test's fresh setup, a hot reload, a factory per request) resumes what the
   * earlier one paused; the resume checks still refuse a checkpoint the new definition cannot
   * take (`action_mismatch`, `provider_mismatch`, `model_mismatch`) before anything runs.
   */
  register(agent: AgentBase): void;
  /** Resumes a stored checkpoint by generation id, in this process. */
  answer(generationId: string, answers: Record<string, unknown>): Promise<GenerationResponse>;
  /**
   * Queues the resume of a stored checkpoint for a worker. Secret answers are refused. `jobId`
   * names the job, as `resumeLater`'s does: an id the queue still knows is refused `already_resumed`.
   */
  answerLater(
    generationId: string,
    answers: Record<string, unknown>,
    options?: { queue?: string; jobId?: string },
  ): Promise<{ jobId: string }>;
  /**
   * A signed, expiring token that answers one question of the generation's current pause and
   * nothing else (`interlude-gateway` takes it in place of an API key): hand it to another service,
   * or put it in a link. It names the generation, the call, the pause and what a valid answer is;
   * default lifetime 24 hours, never past the question's deadline. Never published on the bus.
   */
  answerToken(generationId: string, toolCallId: string, options?: AnswerTokenOptions): Promise<string>;
  /**
   * The generations paused on a question now, oldest first, narrowed to an agent or an action:
   * from the bus's pending index (durable on NATS, so a restarted process lists what older ones
   * asked), each confirmed against the claim log, so one answered, expired or cancelled is never
   * listed.
   */
  pending(filter?: PendingFilter): Promise<PendingGeneration[]>;
  /**
   * Rebuilds the pending index from the logs, for when it was lost (its NATS bucket deleted) or
   * is suspect: every generation whose log holds a pause (`bus.pausedGenerations()`) is listed
   * again, with its timer, if its latest pause verifies (the stored checkpoint, else the one
   * rebuilt from its log) and the claim log shows it still waiting. Adds entries, removes none
   * (`pending()` already ignores what no longer waits). Resolves with how many it listed.
   */
  rebuildPending(): Promise<number>;
  /**
   * Closes a paused generation: its checkpoint is consumed (claimed, like a resume, so of a cancel
   * and a racing answer exactly one wins), a `cancelled` event is published, and later answers
   * are refused with `ResumeError` code `cancelled`.
   */
  cancel(generationId: string, reason: string): Promise<void>;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  bus?: Bus;
  telemetry?: Telemetry;
  /**
   * The key checkpoints, jobs and events are signed with, or several (sign with the first, accept
   * any: rotation), each at least 16 characters. Default: `INTERLUDE_CHECKPOINT_KEY` (keys
   * separated by commas or whitespace); without it, a random key per process on a bus that never
   * leaves the process, and a refusal to start on one that does. `false` turns signing off.
   */
  checkpointKey?: string | readonly string[] | false;
  /**
   * The deployment's name, signed into every checkpoint: another deployment refuses them.
   * Default: `INTERLUDE_AUDIENCE`, else the bus's deployment id.
   */
  audience?: string;
  /** Checkpoints expire this long after their pause (resumes after it get `expired`). Default: never. */
  checkpointTtlMs?: number;
}
