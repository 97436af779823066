import type { InputRequestJSON } from '@interlude/core';
import { describe, expect, it } from 'vitest';
import { coerceAnswer } from './coerce-answer.js';

const text: InputRequestJSON = { kind: 'text', prompt: 'What do you see?' };
const secret: InputRequestJSON = { kind: 'secret', prompt: 'Token?' };
const confirm: InputRequestJSON = { kind: 'confirm', prompt: 'Refund $30?' };
const choice: InputRequestJSON = { kind: 'choice', prompt: 'Priority?', options: ['low', 'urgent'] };

describe('coerceAnswer', () => {
  it('keeps the text a person typed, the word false included', () => {
    expect(coerceAnswer(text, 'false')).toBe('false');
    expect(coerceAnswer(text, 'FALSE')).toBe('FALSE');
    expect(coerceAnswer(secret, 'false')).toBe('false');
  });

  it('declines any question on the boolean false only (the Decline button, the client’s decline)', () => {
    for (const request of [text, secret, confirm, choice]) expect(coerceAnswer(request, false)).toBe(false);
  });

  it('reads a confirm’s typed words as its two answers', () => {
    expect(coerceAnswer(confirm, 'yes')).toBe(true);
    expect(coerceAnswer(confirm, 'false')).toBe(false);
    expect(coerceAnswer(confirm, 'No')).toBe(false);
    expect(() => coerceAnswer(confirm, 'maybe')).toThrow('takes yes or no');
  });

  it('takes only an option of a choice: the text false is not one', () => {
    expect(coerceAnswer(choice, 'urgent')).toBe('urgent');
    expect(() => coerceAnswer(choice, 'false')).toThrow('takes one of: low, urgent');
  });
});
