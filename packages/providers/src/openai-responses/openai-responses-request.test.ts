import type { ModelRequest } from '@interlude/core/provider';
import { describe, expect, it } from 'vitest';
import { buildOpenAIResponsesRequest } from './openai-responses-request.js';

const request: ModelRequest = {
  instructions: 'Be brief.',
  messages: [{ role: 'user', content: 'Hi' }],
  tools: [],
  toolChoice: 'required',
};

describe('buildOpenAIResponsesRequest', () => {
  it('asks for encrypted reasoning only when nothing is stored server-side', () => {
    expect(buildOpenAIResponsesRequest('gpt-5', request, { store: false }, false).include).toEqual([
      'reasoning.encrypted_content',
    ]);
    expect(buildOpenAIResponsesRequest('gpt-5', request, { store: true }, false)).not.toHaveProperty('include');
    expect(buildOpenAIResponsesRequest('gpt-5', request, {}, false)).not.toHaveProperty('include');
  });

  it('lets a model without reasoning leave the include out, and keeps other includes once', () => {
    const settings = { store: false, encryptedReasoning: false, include: ['message.output_text.logprobs' as const] };
    expect(buildOpenAIResponsesRequest('gpt-4.1', request, settings, false).include).toEqual([
      'message.output_text.logprobs',
    ]);
    const both = { store: false, include: ['reasoning.encrypted_content' as const] };
    expect(buildOpenAIResponsesRequest('gpt-5', request, both, false).include).toEqual(['reasoning.encrypted_content']);
  });

  it('puts instructions in their own field and sends no tool choice without tools', () => {
    const body = buildOpenAIResponsesRequest('gpt-5', request, { reasoning: { effort: 'low' } }, true);
    expect(body).toEqual({
      model: 'gpt-5',
      input: [{ role: 'user', content: 'Hi' }],
      instructions: 'Be brief.',
      reasoning: { effort: 'low' },
      stream: true,
    });
  });
});
