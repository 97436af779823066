import type { Bus } from '@interlude/core';
import type { InputTimer, PendingRecord } from '@interlude/core/internal';
import { expect, it } from 'vitest';
import { uniqueId } from './fixtures.js';

function pendingRecord(agent: string, action: string, askedAt: string): PendingRecord {
  return {
    version: 1,
    generation_id: uniqueId('gen'),
    agent,
    action,
    claim_slot: 0,
    input_requests: [{ kind: 'confirm', prompt: 'Refund $30?', tool_call_id: 'call_1', tool_name: 'issue_refund' }],
    asked_at: askedAt,
  };
}

/** A timer of a generation of its own for `agent`, due `inMs` from now. */
function dueSoon(agent: string, inMs: number): InputTimer {
  return {
    version: 1,
    generation_id: uniqueId('gen'),
    agent,
    action: 'handle',
    claim_slot: 0,
    due_at: new Date(Date.now() + inMs).toISOString(),
  };
}

/**
 * The pending index and the deadline timers, for a bus that has them (`bus.pending`,
 * `bus.timers`; a bus without them skips these cases).
 */
export function waitingCases(bus: () => Bus, createWithShortAckWait: () => Bus | Promise<Bus>): void {
  it('names each generation it holds a record of once, with when it was asked, a later put replacing, a remove forgetting', async (context) => {
    const index = bus().pending;
    if (index === undefined) return context.skip();
    const agent = uniqueId('agent');
    const first = pendingRecord(agent, 'handle', '2026-01-01T00:00:00.000Z');
    const second = pendingRecord(agent, 'triage', '2026-01-01T00:00:01.000Z');
    const ours = async () =>
      (await index.entries())
        .filter((entry) => [first.generation_id, second.generation_id].includes(entry.generationId))
        .sort((a, b) => String(a.askedAt).localeCompare(String(b.askedAt)));
    await index.put(first);
    await index.put(second);
    expect(await ours()).toEqual([
      { generationId: first.generation_id, askedAt: first.asked_at },
      { generationId: second.generation_id, askedAt: second.asked_at },
    ]);
    const again = { ...first, claim_slot: 2, asked_at: '2026-01-01T00:00:02.000Z' };
    await index.put(again);
    await index.remove(second.generation_id);
    expect(await ours()).toEqual([{ generationId: first.generation_id, askedAt: again.asked_at }]);
  });

  it('hands a timer to its agent consumer once it is due, once however often it was scheduled', async (context) => {
    const timers = bus().timers;
    if (timers === undefined) return context.skip();
    const agent = uniqueId('agent');
    const timer = dueSoon(agent, 300);
    await timers.schedule(timer);
    await timers.schedule(timer);
    const met: { timer: InputTimer; at: number }[] = [];
    const consumer = await timers.consume(
      async (due) => {
        if (due.agent === agent) met.push({ timer: due, at: Date.now() });
      },
      { agents: [agent] },
    );
    try {
      await expect.poll(() => met.length, { timeout: 10_000 }).toBe(1);
      expect(met[0]?.timer).toEqual(timer);
      expect(met[0]?.at).toBeGreaterThanOrEqual(Date.parse(timer.due_at));
      // Scheduled twice, kept once: nothing more arrives.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(met).toHaveLength(1);
    } finally {
      await consumer.stop();
    }
  });

  it('leaves a timer its handler abandons to the delivery that took it over: not settled, so it comes again once nothing holds it', async (context) => {
    const lapsing = await createWithShortAckWait();
    try {
      const timers = lapsing.timers;
      if (timers === undefined) return context.skip();
      const agent = uniqueId('agent');
      const timer = dueSoon(agent, 100);
      await timers.schedule(timer);
      // The first consumer's run was taken over (fenced): it leaves the timer to that delivery.
      let abandoned = 0;
      const fenced = await timers.consume(
        async () => {
          abandoned += 1;
          return { verdict: 'abandon' };
        },
        { agents: [agent] },
      );
      await expect.poll(() => abandoned, { timeout: 10_000 }).toBe(1);
      await fenced.stop();
      // The delivery that took it over died too: the timer is still there to meet.
      const met: InputTimer[] = [];
      const next = await timers.consume(
        async (due) => {
          met.push(due);
          return { verdict: 'done' };
        },
        { agents: [agent] },
      );
      try {
        await expect.poll(() => met.length, { timeout: 20_000 }).toBe(1);
        expect(met[0]).toEqual(timer);
      } finally {
        await next.stop();
      }
    } finally {
      await lapsing.close();
    }
  });
}
