import { describe, expect, it } from 'vitest';
import { createReplayedFieldsCollector, pickReplayedFields } from './openai-chat-reasoning-fields.js';

describe('reasoning fields a compatible server needs back', () => {
  it('joins streamed reasoning strings and leaves out the nulls between them', () => {
    const collector = createReplayedFieldsCollector();
    for (const piece of ['', 'Order 42', null, ' needs a refund.']) collector.add({ reasoning_content: piece });
    collector.add({ content: 'text is not reasoning' });
    expect(collector.fields()).toEqual({ reasoning_content: 'Order 42 needs a refund.' });
  });

  it('joins reasoning_details pieces by their index: texts concatenate, the later signature wins', () => {
    const collector = createReplayedFieldsCollector();
    const detail = { type: 'reasoning.text', format: 'anthropic-claude-v1', index: 0 };
    collector.add({ reasoning_details: [{ ...detail, text: '', signature: '' }] });
    collector.add({ reasoning_details: [{ ...detail, text: 'Refund' }] });
    collector.add({ reasoning_details: [] });
    collector.add({
      reasoning_details: [
        { ...detail, text: ' it.' },
        { type: 'reasoning.encrypted', data: 'x', index: 1 },
      ],
    });
    collector.add({ reasoning_details: [{ ...detail, signature: 'sig' }] });
    expect(collector.fields()['reasoning_details']).toEqual([
      { ...detail, text: 'Refund it.', signature: 'sig' },
      { type: 'reasoning.encrypted', data: 'x', index: 1 },
    ]);
  });

  it('merges extra_content parts and picks only the named fields of a whole message', () => {
    const collector = createReplayedFieldsCollector();
    collector.add({ extra_content: { google: { thought: true } } });
    collector.add({ extra_content: { google: { thought_signature: 'sig' } } });
    expect(collector.fields()).toEqual({ extra_content: { google: { thought: true, thought_signature: 'sig' } } });
    expect(pickReplayedFields({ role: 'assistant', refusal: null, reasoning: 'r', reasoning_content: null })).toEqual({
      reasoning: 'r',
    });
  });
});
