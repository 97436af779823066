import { describe, expect, it } from 'vitest';
import { latestContainerId } from './anthropic-container.js';

const now = new Date('2026-11-29T12:00:00Z');
const turn = (id: string, expiresAt?: string) => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'ran code' }],
  container: { id, ...(expiresAt ? { expires_at: expiresAt } : {}) },
});

describe('latestContainerId', () => {
  it('takes the newest container of the conversation', () => {
    const messages = [
      turn('container_a', '2026-11-29T13:00:00Z'),
      { role: 'user', content: 'more' },
      turn('container_b'),
    ];
    expect(latestContainerId(messages, now)).toBe('container_b');
  });

  it('gives nothing when the newest container has expired, even if an older record exists', () => {
    const messages = [turn('container_a', '2026-11-29T13:00:00Z'), turn('container_b', '2026-11-29T11:00:00Z')];
    expect(latestContainerId(messages, now)).toBeUndefined();
  });

  it('gives nothing for a conversation that never ran code', () => {
    expect(latestContainerId([{ role: 'user', content: 'hi' }], now)).toBeUndefined();
  });
});
