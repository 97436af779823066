import { describe, expect, it } from 'vitest';
import { createMemoryBus } from './memory-bus.js';
import { createStopBound } from './stop-bound.js';

const never = new Promise<void>(() => undefined);

/** A bound that counts how often it handed the running jobs back. */
function countingBound() {
  const handedBack = { times: 0 };
  const bound = createStopBound(() => {
    handedBack.times += 1;
  });
  return { bound, handedBack };
}

describe('createStopBound', () => {
  it('resolves when the jobs finish first, without reaching the bound', async () => {
    const { bound, handedBack } = countingBound();
    bound.moveTo(60_000);
    await bound.wait(Promise.resolve());
    expect(bound.reached).toBe(false);
    expect(handedBack.times).toBe(0);
  });

  it('reaches the bound once when the jobs do not finish, and every waiter resolves', async () => {
    const { bound, handedBack } = countingBound();
    bound.moveTo(50);
    await Promise.all([bound.wait(never), bound.wait(never)]);
    expect(bound.reached).toBe(true);
    expect(handedBack.times).toBe(1);
  });

  it('moves only earlier: a later stop with 0 reaches it now, a longer one changes nothing', async () => {
    const { bound, handedBack } = countingBound();
    bound.moveTo(60_000);
    const first = bound.wait(never);
    bound.moveTo(120_000);
    expect(bound.reached).toBe(false);
    bound.moveTo(0);
    await first;
    expect(handedBack.times).toBe(1);
    bound.moveTo(0);
    expect(handedBack.times).toBe(1);
  });

  it('without a timeout waits for the jobs, and refuses a negative one', async () => {
    const bound = createStopBound(() => undefined);
    bound.moveTo(undefined);
    let resolved = false;
    void bound.wait(never).then(() => {
      resolved = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resolved).toBe(false);
    expect(() => bound.moveTo(-1)).toThrow(TypeError);
  });
});

describe('memoryBus job consumer stop({ timeoutMs })', () => {
  it('stops waiting at the bound, leaves the running job to finish in this process, and says it no longer consumes', async () => {
    const bus = createMemoryBus();
    let release: () => void = () => undefined;
    const finished: string[] = [];
    const consumer = await bus.jobs.consume(
      'agents',
      async (job) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        finished.push(job.id);
      },
      { concurrency: 1 },
    );
    expect(consumer.isConsuming?.()).toBe(true);
    await bus.jobs.enqueue('agents', {
      version: 1,
      id: 'job-1',
      kind: 'generate',
      agent: 'support',
      action: 'handle',
      params: {},
      generation_id: 'gen_1',
    });
    await consumer.stop({ timeoutMs: 50 });
    expect(consumer.isConsuming?.()).toBe(false);
    expect(finished).toEqual([]);
    release();
    await expect.poll(() => finished).toEqual(['job-1']);
  });
});
