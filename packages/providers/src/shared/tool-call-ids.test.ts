import { describe, expect, it } from 'vitest';
import { createToolCallIds, uniqueToolCallIds } from './tool-call-ids.js';

describe('tool call ids of one turn', () => {
  it('keeps usable server ids and makes up one for a missing or repeated id', () => {
    expect(uniqueToolCallIds(['call_a', '', 'call_a', null, 'call_b'], 4)).toEqual([
      'call_a',
      'interlude_4_1',
      'interlude_4_2',
      'interlude_4_3',
      'call_b',
    ]);
  });

  it('never makes up an id the server already used in the turn, and is the same whether ids come one by one or at once', () => {
    const ids = createToolCallIds(2);
    const oneByOne = ['interlude_2_1', '', ''].map((id) => ids.next(id));
    expect(oneByOne).toEqual(['interlude_2_1', 'interlude_2_1_1', 'interlude_2_2']);
    expect(uniqueToolCallIds(['interlude_2_1', '', ''], 2)).toEqual(oneByOne);
  });

  it('names the same position of another turn differently', () => {
    expect(uniqueToolCallIds([''], 1)).not.toEqual(uniqueToolCallIds([''], 3));
  });
});
