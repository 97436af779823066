import { describe, expect, it } from 'vitest';
import { ResumeError } from '../errors/resume-error.js';
import type { InputRequestJSON } from './input-request.js';
import { validateAnswers } from './validate-answers.js';

const choice: InputRequestJSON = {
  kind: 'choice',
  prompt: 'Which team?',
  tool_call_id: 'call_team',
  tool_name: 'route',
  options: ['billing', 'shipping'],
};
const text: InputRequestJSON = { kind: 'text', prompt: 'Why?', tool_call_id: 'call_why', tool_name: 'ask' };

function refusal(requests: InputRequestJSON[], answers: unknown): ResumeError {
  try {
    validateAnswers(requests, answers);
  } catch (error) {
    if (ResumeError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the answers were accepted');
}

describe('answers are checked without echoing them', () => {
  it('an invalid_choice with a 10 MB answer quotes a short prefix of it', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const error = refusal([choice], { call_team: huge });
    expect(error.code).toBe('invalid_choice');
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain('(10485762 characters)');
  });

  it('an answer for an unknown call with a 10 MB id quotes a short prefix of the id', () => {
    const error = refusal([choice], { call_team: 'billing', ['y'.repeat(10 * 1024 * 1024)]: true });
    expect(error.code).toBe('unknown_call');
    expect(error.message.length).toBeLessThan(400);
    expect((error.toolCallId ?? '').length).toBeLessThanOrEqual(200);
  });

  it('a text answer must be a string when no schema says otherwise: objects, arrays, numbers and null are refused', () => {
    for (const answer of [{ a: 1 }, ['a'], 42, null, true]) {
      expect(refusal([text], { call_why: answer }).code).toBe('invalid_text');
    }
    expect(validateAnswers([text], { call_why: 'because' }).get('call_why')).toBe('because');
    expect(validateAnswers([text], { call_why: false }).get('call_why')).toBe(false);
    const withSchema = { ...text, schema: { type: 'object', properties: { a: { type: 'number' } } } };
    expect(validateAnswers([withSchema], { call_why: { a: 1 } }).get('call_why')).toEqual({ a: 1 });
  });
});
