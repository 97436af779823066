import { describe, expect, it } from 'vitest';
import { retryTransient } from './retry.js';

const named = (name: string) => Object.assign(new Error(name), { name });
const open = { isClosed: () => false, initialDelayMs: 1, maxDelayMs: 1 };

describe('retryTransient with an attempt bound', () => {
  it('after an unanswered attempt, sends the next at once with the shorter bound; a refusal keeps the bound', async () => {
    const bounds: (number | undefined)[] = [];
    const answer = await retryTransient(
      (bound) => {
        bounds.push(bound);
        // Two attempts nobody answers (a stream electing its leader), then an answer.
        return bounds.length < 3 ? new Promise<string>(() => undefined) : Promise.resolve('stored');
      },
      { ...open, attemptTimeoutMs: 40, unansweredAttemptTimeoutMs: 20 },
    );
    expect(answer).toBe('stored');
    expect(bounds).toEqual([40, 20, 20]);

    const refused: (number | undefined)[] = [];
    await retryTransient(
      (bound) => {
        refused.push(bound);
        return refused.length < 2 ? Promise.reject(named('NoResponders')) : Promise.resolve('stored');
      },
      { ...open, attemptTimeoutMs: 40, unansweredAttemptTimeoutMs: 20 },
    );
    expect(refused).toEqual([40, 40]);
  });
});
