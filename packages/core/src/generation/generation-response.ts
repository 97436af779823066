import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { AskedInputRequest } from '../input-request/input-request.js';
import type { FinishReason, ProviderMessage, Usage } from '../provider/provider-adapter.js';

/**
 * What a generation returns, paused or done. When `awaitingInput`, `inputRequests` says what to
 * ask and `checkpoint` is the plain JSON to store and resume from.
 */
export interface GenerationResponse {
  generationId: string;
  status: 'completed' | 'awaiting_input' | 'tool_turns_exceeded';
  awaitingInput: boolean;
  /**
   * The text of the model's last turn. When the provider paused that turn on its own and the loop
   * continued it (Anthropic `pause_turn`), this is the text of every continuation, in order: what
   * `stream()` delivered as text deltas.
   */
  text: string;
  finishReason: FinishReason;
  /** The provider's own stop reason (`end_turn`, `pause_turn`, `tool_calls`, …). */
  rawFinishReason: string | undefined;
  /** What the paused generation asks, each bound to the call that asked (empty when not paused). */
  inputRequests: AskedInputRequest[];
  checkpoint: Checkpoint | undefined;
  /**
   * An answer token per question, by tool call id (`runtime.answerToken()` makes more, with other
   * lifetimes): each answers that one question through `interlude-gateway`, for 24 hours at most.
   * Empty when not paused, for a nested generation, or when signing is off.
   */
  answerTokens: Record<string, string>;
  /** The whole conversation, provider-native, without instruction messages. */
  messages: ProviderMessage[];
  toolTurns: number;
  /** Token usage summed over this run's model calls. */
  usage: Usage;
  /**
   * True when the generation ended because the provider kept pausing its own turn past the
   * adapter's continuation cap (Anthropic: 10 `pause_turn` answers in a row): the server-tool work
   * is unfinished, `finishReason` is `pause`, and `text` / `messages` hold what it produced so far.
   * `status` stays `completed`: nothing waits on a person and there is no checkpoint to resume.
   */
  continuationsExceeded: boolean;
}
