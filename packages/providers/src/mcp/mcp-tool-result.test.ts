import { describe, expect, it } from 'vitest';
import { mcpToolResult } from './mcp-tool-result.js';

describe('mcpToolResult', () => {
  it('parses JSON text so an object stays an object', () => {
    expect(mcpToolResult('t', { content: [{ type: 'text', text: '{"closed":7}' }] })).toEqual({ closed: 7 });
  });

  it('keeps plain text as a string, joining several text blocks', () => {
    expect(mcpToolResult('t', { content: [{ type: 'text', text: 'closed' }] })).toBe('closed');
    expect(
      mcpToolResult('t', {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(mcpToolResult('t', { content: [{ type: 'text', text: '{not json' }] })).toBe('{not json');
  });

  it('prefers structured content', () => {
    expect(mcpToolResult('t', { content: [{ type: 'text', text: 'seven' }], structuredContent: { value: 7 } })).toEqual(
      { value: 7 },
    );
  });

  it('passes other content through as the server sent it', () => {
    const content = [
      { type: 'text' as const, text: 'a chart' },
      { type: 'image' as const, data: 'aGk=', mimeType: 'image/png' },
    ];
    expect(mcpToolResult('t', { content })).toEqual(content);
  });

  it('throws the server text for isError results, or names the tool when there is none', () => {
    expect(() => mcpToolResult('t', { isError: true, content: [{ type: 'text', text: 'locked' }] })).toThrow('locked');
    expect(() => mcpToolResult('close', { isError: true, content: [] })).toThrow('close failed on its MCP server');
  });
});
