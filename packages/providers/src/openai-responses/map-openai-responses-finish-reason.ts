import type { FinishReason } from '@interlude/core/provider';
import type { OpenAIResponsesResponse } from './openai-responses-api.js';

/**
 * Responses has no finish reason, only a status and, when `incomplete`, a reason. A completed
 * response with function calls is a tool-call turn.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 */
export function mapOpenAIResponsesFinishReason(
  response: Pick<OpenAIResponsesResponse, 'status' | 'incomplete_details'>,
  hasToolCalls: boolean,
): { finishReason: FinishReason; rawFinishReason: string } {
  const status = response.status ?? 'completed';
  if (status === 'incomplete') {
    const reason = response.incomplete_details?.reason ?? 'incomplete';
    if (reason === 'max_output_tokens') return { finishReason: 'length', rawFinishReason: reason };
    if (reason === 'content_filter') return { finishReason: 'content-filter', rawFinishReason: reason };
    return { finishReason: 'other', rawFinishReason: reason };
  }
  if (status === 'completed') return { finishReason: hasToolCalls ? 'tool-calls' : 'stop', rawFinishReason: status };
  return { finishReason: 'other', rawFinishReason: status };
}
