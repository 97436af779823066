import { describe, expect, it } from 'vitest';
import { findGatewayKey, parseGatewayKeys } from './gateway-keys.js';

describe('INTERLUDE_GATEWAY_KEYS', () => {
  it('reads name:scopes:secret entries, * for every scope, a secret holding colons', () => {
    const keys = parseGatewayKeys(' desk:read+answer:0123456789abcdef ,\n ops:*:a:b:c:0123456789abcdef');
    expect(keys).toEqual([
      { name: 'desk', scopes: ['read', 'answer'], secret: '0123456789abcdef' },
      { name: 'ops', scopes: ['read', 'answer', 'cancel'], secret: 'a:b:c:0123456789abcdef' },
    ]);
    expect(findGatewayKey(keys, 'a:b:c:0123456789abcdef')?.name).toBe('ops');
    expect(findGatewayKey(keys, '0123456789abcdeX')).toBeUndefined();
  });

  it('refuses every bad entry at once, naming it by position and name, never by secret', () => {
    const attempt = () =>
      parseGatewayKeys('desk:read:short-secret,desk:write:0123456789abcdef,bad!name:read:0123456789abcdef');
    expect(attempt).toThrow(TypeError);
    expect(attempt).toThrow(
      'entry 1 (desk): the secret needs 16 characters or more; entry 2 (desk): scopes are read, answer, cancel joined by + (or *); entry 2 (desk): the name is used twice; entry 3: a name of letters, digits, - or _ comes first',
    );
    expect(() => parseGatewayKeys('desk:read:short-secret')).not.toThrow(/short-secret/);
    expect(() => parseGatewayKeys('  ')).toThrow('no key given');
  });
});
