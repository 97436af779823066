import { describe, expect, it } from 'vitest';
import { mcpServer } from './mcp-server.js';

const stdio = { name: 'files', command: 'node', args: ['server.js'] };

describe('mcpServer options', () => {
  it.each([
    ['a word other than always or never', 'sometimes'],
    ['a bare tool name', 'close_ticket'],
    ['true', true],
    ['null', null],
    ['a list with a number', ['close_ticket', 3]],
  ])('refuses requireApproval given %s with a TypeError, before anything connects', (_label, value) => {
    expect(() => mcpServer(stdio, { requireApproval: value as never })).toThrow(TypeError);
    expect(() => mcpServer(stdio, { requireApproval: value as never })).toThrow(/requireApproval must be/);
  });

  it('accepts always, never and a list of names', () => {
    for (const requireApproval of ['always', 'never', ['close_ticket']] as const) {
      expect(mcpServer(stdio, { requireApproval }).kind).toBe('toolset');
    }
  });

  it('needs exactly one of command or url, and a name', () => {
    expect(() => mcpServer({ name: 'x', command: 'node', url: 'http://127.0.0.1/mcp' } as never)).toThrow(
      /exactly one of command or url/,
    );
    expect(() => mcpServer({ name: 'x' } as never)).toThrow(/exactly one of command or url/);
    expect(() => mcpServer({ name: '', command: 'node' })).toThrow(/non-empty name/);
    expect(() => mcpServer({ name: 'x', url: 'not a url' })).toThrow(TypeError);
  });

  it('refuses allowedTools that is not a list of names', () => {
    expect(() => mcpServer(stdio, { allowedTools: 'read_file' as never })).toThrow(/allowedTools must be/);
  });

  it('names the toolset after the server', () => {
    expect(mcpServer({ name: 'docs', url: 'http://127.0.0.1:1/mcp' }).name).toBe('docs');
  });
});
