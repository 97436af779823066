import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What the model reads from an MCP tool's result. Structured content wins when the server sends
 * it; otherwise text content, parsed when it is JSON (so an object stays an object in the tool
 * result), several text blocks joined by newlines; other content (images, resources) as the
 * server sent it. A result with `isError` throws, so the model reads `{ "error": <text> }`.
 *
 * @see https://modelcontextprotocol.io/specification/2025-06-18/server/tools#tool-result
 */
export function mcpToolResult(toolName: string, result: CallToolResult): unknown {
  const content = result.content ?? [];
  const texts = content.filter((block) => block.type === 'text').map((block) => block.text);
  if (result.isError === true) {
    throw new Error(texts.length > 0 ? texts.join('\n') : `${toolName} failed on its MCP server`);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (content.length === 0) return null;
  if (texts.length === content.length) return parseJsonText(texts.join('\n'));
  return content;
}

function parseJsonText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}
