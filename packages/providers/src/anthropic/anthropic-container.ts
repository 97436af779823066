import type { ProviderMessage } from '@interlude/core/provider';
import { isRecord } from './convert-to-anthropic-messages.js';

/**
 * The id of the code-execution container the conversation last used, so the next request
 * (a `pause_turn` continuation, or a resume hours later) runs in the same container and sees
 * its files. A container past its `expires_at` is gone on the API side: sending its id would
 * only fail the request, so it is left out and the API starts a fresh one.
 *
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/code-execution-tool#reuse-containers
 */
export function latestContainerId(messages: readonly ProviderMessage[], now: Date): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (!isRecord(message) || !isRecord(message['container'])) continue;
    const { id, expires_at: expiresAt } = message['container'];
    if (typeof id !== 'string') continue;
    if (typeof expiresAt === 'string' && Date.parse(expiresAt) <= now.getTime()) return undefined;
    return id;
  }
  return undefined;
}
