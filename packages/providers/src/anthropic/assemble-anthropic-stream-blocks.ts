import type { MessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';

/** The block types whose `input_json_delta` the SDK's `MessageStream` assembles itself. */
const ASSEMBLED_BY_SDK = new Set(['tool_use', 'server_tool_use']);

/**
 * Completes the streamed blocks the SDK's `MessageStream` leaves as they started: it parses
 * `input_json_delta` only for `tool_use` and `server_tool_use` and ignores deltas it has no case
 * for, so an `mcp_tool_use` would be stored with `input: {}` and a `compaction` with
 * `content: null`, and sent back that way. This reads the same events beside the SDK and, once the
 * message is whole, puts in what they carried: the JSON of any other block's `input_json_delta`
 * (an empty text is `{}`, as for tool_use), and the fields of a `compaction_delta`, which carries
 * the block's final value (null content = a failed compaction), so it is assigned, not appended.
 *
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#input-json-delta
 * @see https://docs.anthropic.com/en/docs/build-with-claude/compaction
 */
export function createStreamBlockAssembler() {
  const types = new Map<number, string>();
  const inputs = new Map<number, string>();
  const assigned = new Map<number, Record<string, unknown>>();
  return {
    onEvent(event: MessageStreamEvent): void {
      if (event.type === 'content_block_start') types.set(event.index, event.content_block.type);
      if (event.type !== 'content_block_delta') return;
      const delta = event.delta as unknown as Record<string, unknown>;
      if (delta['type'] === 'input_json_delta' && !ASSEMBLED_BY_SDK.has(types.get(event.index) ?? '')) {
        inputs.set(event.index, `${inputs.get(event.index) ?? ''}${String(delta['partial_json'] ?? '')}`);
      }
      if (delta['type'] === 'compaction_delta') {
        const { type: _type, ...fields } = delta;
        assigned.set(event.index, { ...assigned.get(event.index), ...fields });
      }
    },
    /** The assembled message's content with those blocks completed (copies; the rest untouched). */
    complete(content: readonly Record<string, unknown>[]): Record<string, unknown>[] {
      return content.map((block, index) => {
        const input = inputs.get(index);
        const fields = assigned.get(index);
        if (input === undefined && fields === undefined) return block;
        return {
          ...block,
          ...(input !== undefined && { input: input.trim() === '' ? {} : (JSON.parse(input) as unknown) }),
          ...fields,
        };
      });
    },
  };
}
