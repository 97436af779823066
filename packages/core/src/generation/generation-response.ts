import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { AskedInputRequest } from '../input-request/asked-input-request.js';
import type { FinishReason, ProviderMessage, Usage } from '../provider/provider-adapter.js';

/**
 * What a generation returns, paused or done. When `awaitingInput`, `inputRequests` says what to
 * ask and `checkpoint` is the plain JSON to store and resume from.
 */
export interface GenerationResponse {
  generationId: string;
  status: 'completed' | 'awaiting_input' | 'tool_turns_exceeded';
  awaitingInput: boolean;
  text: string;
  finishReason: FinishReason;
  /** The provider's own stop reason (`end_turn`, `pause_turn`, `tool_calls`, …). */
  rawFinishReason: string | undefined;
  /** What the paused generation asks, each bound to the call that asked (empty when not paused). */
  inputRequests: AskedInputRequest[];
  checkpoint: Checkpoint | undefined;
  /** The whole conversation, provider-native, without instruction messages. */
  messages: ProviderMessage[];
  toolTurns: number;
  /** Token usage summed over this run's model calls. */
  usage: Usage;
}
