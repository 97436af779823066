import { describe, expect, it } from 'vitest';
import { EVENTUALLY, runTicket } from './support/demo-browser.js';
import { useDemoWithBrowser } from './support/demo-with-browser.js';

// The course refund's question (ticket 102) waits ten seconds here instead of a minute: long
// enough for a loaded machine to show it counting down, short enough to watch it expire.
const demo = useDemoWithBrowser({ DEMO_REFUND_EXPIRY_MS: '10000' });

describe('waiting on the demo page: deadlines and cancelling, in headless Chromium', () => {
  it('counts down a question with a deadline, then expires it when nobody answers', async (context) => {
    const page = await demo.openDesk(context);
    const generationId = await runTicket(page, 102);
    const listed = page.locator(`#pending [data-generation="${generationId}"]`);
    await expect
      .poll(() => listed.locator('[data-countdown]').textContent(), EVENTUALLY)
      .toMatch(/^expires in 0:\d\d$/);
    expect(await page.locator('.detail-head [data-countdown]').textContent()).toMatch(/^expires in 0:\d\d$/);

    // Nobody answers: the refund never runs, and the model reads that nobody answered, not a refusal.
    await expect.poll(() => page.locator('[data-status]').textContent(), EVENTUALLY).toBe('completed');
    await expect
      .poll(() => page.locator('[data-final-answer]').textContent(), EVENTUALLY)
      .toContain('Nobody answered about the $45 refund');
    expect(await page.locator('[data-event="input_expired"]').textContent()).toContain('nobody answered by');
    expect(await page.locator('[data-timeline]').textContent()).toContain(
      'issue_refund → error {"error":"no answer in time"}',
    );
    await expect.poll(() => listed.count(), EVENTUALLY).toBe(0);
  }, 60_000);

  it('cancels a waiting generation: it leaves the list, and a later answer is refused', async (context) => {
    const page = await demo.openDesk(context);
    const generationId = await runTicket(page, 101);
    const toolCallId = await page.locator('[data-kind="confirm"]').getAttribute('data-question');
    // The token the page would answer with, taken while the question still waits.
    const token = await page.evaluate(async (id) => {
      const pending = (await (await fetch('/api/pending')).json()) as { generationId: string; answerToken: string }[];
      return pending.find((question) => question.generationId === id)?.answerToken;
    }, generationId);
    await page.locator('[data-cancel]').click();
    await expect.poll(() => page.locator('[data-status]').textContent(), EVENTUALLY).toBe('cancelled');
    expect(await page.locator('[data-notice]').textContent()).toContain('Cancelled');
    expect(await page.locator(`#pending [data-generation="${generationId}"]`).count()).toBe(0);
    expect(await page.locator('[data-cancel]').count()).toBe(0);
    const late = await page.evaluate(
      async ({ id, callId, answerToken }) => {
        const response = await fetch(`/v1/generations/${id}/answers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${answerToken}` },
          body: JSON.stringify({ answers: { [callId as string]: true } }),
        });
        return { status: response.status, body: await response.json() };
      },
      { id: generationId, callId: toolCallId, answerToken: token },
    );
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'cancelled' } } });
  });
});
