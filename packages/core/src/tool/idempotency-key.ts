import { hash } from 'node:crypto';

/**
 * The key a tool call hands to downstream APIs (`ctx.idempotencyKey`): a digest of the generation
 * and the call, the same in every process and every run of the call, 32 hex digits (short
 * enough for the payment APIs that cap keys at 64 or 255 characters).
 */
export function idempotencyKeyOf(generationId: string, toolCallId: string): string {
  return hash('sha256', `${generationId}\n${toolCallId}`, 'hex').slice(0, 32);
}
