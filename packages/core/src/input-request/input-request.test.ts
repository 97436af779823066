import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputRequest, type InputRequestJSON } from './input-request.js';

describe('InputRequest', () => {
  it('builds the four kinds with schema and metadata, and round-trips through JSON exactly', () => {
    const requests = [
      InputRequest.confirm('Refund $30?'),
      InputRequest.text('What happened?', { metadata: { ticket: 7 } }),
      InputRequest.choice('Which team?', { options: ['billing', { value: 'tech', label: 'Tech support' }] }),
      InputRequest.secret('Deploy token?', { schema: z.string().min(8) }),
    ];
    expect(requests.map((request) => request.kind)).toEqual(['confirm', 'text', 'choice', 'secret']);
    expect(requests[0]?.toJSON()).toEqual({ kind: 'confirm', prompt: 'Refund $30?' });
    expect(requests[3]?.toJSON().schema).toMatchObject({ type: 'string', minLength: 8 });
    for (const request of requests) {
      const json = JSON.parse(JSON.stringify(request)) as InputRequestJSON;
      expect(InputRequest.fromJSON(json).toJSON()).toEqual(json);
      expect(JSON.stringify(InputRequest.fromJSON(json))).toBe(JSON.stringify(request));
    }
  });

  it('keeps the call it belongs to', () => {
    const bound = InputRequest.confirm('Ok?').forCall({ id: 'call_1', name: 'issue_refund', arguments: { amount: 3 } });
    expect(bound.toJSON()).toEqual({
      kind: 'confirm',
      prompt: 'Ok?',
      tool_call_id: 'call_1',
      tool_name: 'issue_refund',
      arguments: { amount: 3 },
    });
    expect(InputRequest.choice('Pick', { options: [1, { value: 2, label: 'two' }] }).optionValues()).toEqual([1, 2]);
  });

  it('refuses an unknown kind, an empty prompt and a choice without options', () => {
    expect(() => InputRequest.fromJSON({ kind: 'vote' as never, prompt: 'x' })).toThrow(/Unknown input request kind/);
    expect(() => InputRequest.confirm('')).toThrow(/non-empty prompt/);
    expect(() => InputRequest.text('   ')).toThrow(/non-empty prompt/);
    expect(() => InputRequest.choice('Pick', { options: [] })).toThrow(/at least one option/);
    expect(() => InputRequest.fromJSON({ kind: 'choice', prompt: 'Pick' })).toThrow(/at least one option/);
  });
});
