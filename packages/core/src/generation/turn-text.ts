import type { ModelResponse } from '../provider/provider-adapter.js';
import type { GenerationContext } from './generation-context.js';

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
