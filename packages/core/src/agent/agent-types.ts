import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { ContextBinding } from '../context/has-context.js';
import type { Generation } from '../generation/generation.js';
import type { InputRequest } from '../input-request/input-request.js';
import type { ProviderAdapter } from '../provider/provider-adapter.js';
import type { Runtime } from '../runtime/runtime.js';
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
