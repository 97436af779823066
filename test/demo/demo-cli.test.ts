import { describe, expect, it } from 'vitest';
import { EVENTUALLY, runTicket } from './support/demo-browser.js';
import { lastEvent, pendingQuestions, queueTicketRun, runCli, startCli } from './support/demo-process.js';
import { useDemoWithBrowser } from './support/demo-with-browser.js';

const demo = useDemoWithBrowser();

describe('the terminal client, against the same demo server as the page', () => {
  it('lists a question the page is showing, answers it, and the page shows it resolved', async (context) => {
    const page = await demo.openDesk(context);
    const generationId = await runTicket(page, 101);
    await page.locator('[data-kind="confirm"]').waitFor();
    await expect.poll(() => page.locator(`#pending [data-generation="${generationId}"]`).count(), EVENTUALLY).toBe(1);

    const pending = await runCli(demo.url, ['pending']);
    expect(pending).toContain(`${generationId}  toolu_refund_01  confirm  support: Refund $30 on order 1042?`);

    const answered = await runCli(demo.url, ['answer', generationId, 'toolu_refund_01', 'yes']);
    expect(answered).toContain(`the worker resumes ${generationId}`);

    // The page never reloads: its event stream brings the resume and the final answer.
    await expect.poll(() => page.locator('[data-status]').textContent(), EVENTUALLY).toBe('completed');
    await expect
      .poll(() => page.locator('[data-final-answer]').textContent(), EVENTUALLY)
      .toContain('Refunded $30 on order 1042');
    expect(await page.locator('[data-question]').count()).toBe(0);
    expect(await page.locator(`#pending [data-generation="${generationId}"]`).count()).toBe(0);
    expect(await runCli(demo.url, ['pending'])).not.toContain(generationId);

    const replay = await runCli(demo.url, ['replay', generationId]);
    const lines = replay
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/)[1]);
    expect(lines).toEqual([
      'started',
      'model_responded',
      'tool_started',
      'tool_completed',
      'tool_started',
      'input_requested',
      'resumed',
      'tool_started',
      'tool_completed',
      'model_responded',
      'completed',
    ]);
  }, 90_000);

  it('refuses an answer the question does not take, and names the options', async () => {
    const generationId = await queueTicketRun(demo.url, 103);
    await expect.poll(() => pendingQuestions(demo.url), EVENTUALLY).toContain(`${generationId} toolu_ask_01 text`);
    await runCli(demo.url, ['answer', generationId, 'toolu_ask_01', 'Safari 18, blank page']);
    await expect
      .poll(() => pendingQuestions(demo.url), EVENTUALLY)
      .toContain(`${generationId} toolu_priority_01 choice`);
    expect(await runCli(demo.url, ['pending'])).toContain(`${generationId}  toolu_priority_01  choice`);
    const refused = runCli(demo.url, ['answer', generationId, 'toolu_priority_01', 'whenever']);
    await expect(refused).rejects.toThrow(/takes one of: low, normal, urgent/);
    expect(await runCli(demo.url, ['answer', generationId, 'toolu_priority_01', 'low'])).toContain(
      'the worker resumes',
    );
  }, 90_000);

  it('declines with `decline`, and sends the text false with `answer`', async () => {
    const startRun = async (ticketId: number) => {
      const generationId = await queueTicketRun(demo.url, ticketId);
      await expect.poll(async () => (await pendingQuestions(demo.url)).join('\n'), EVENTUALLY).toContain(generationId);
      return generationId;
    };
    const refund = await startRun(102);
    expect(await runCli(demo.url, ['decline', refund, 'toolu_refund_01'])).toContain(
      `Declined; the worker resumes ${refund}`,
    );
    await expect.poll(() => lastEvent(demo.url, refund), EVENTUALLY).toBe('completed');
    expect(await runCli(demo.url, ['replay', refund])).toContain('declined the $45 refund');

    const triage = await startRun(103);
    await runCli(demo.url, ['answer', triage, 'toolu_ask_01', 'false']);
    await expect.poll(() => pendingQuestions(demo.url), EVENTUALLY).toContain(`${triage} toolu_priority_01 choice`);
    expect(await runCli(demo.url, ['pending'])).toMatch(
      new RegExp(
        `${triage}  toolu_priority_01  choice\\s+triage: Priority for ticket 103\\? Reporter says: false options`,
      ),
    );
  }, 90_000);

  it('tails input_requested events as generations pause', async () => {
    const tail = startCli(demo.url, ['tail']);
    try {
      await expect.poll(() => tail.output(), EVENTUALLY).toContain('Following input_requested events');
      const generationId = await queueTicketRun(demo.url, 104);
      await expect
        .poll(() => tail.output(), EVENTUALLY)
        .toContain(`[toolu_deploy_01] confirm: Allow deploy_release to run?`);
      expect(tail.output()).toContain(generationId);
      expect(tail.output()).not.toContain('started');
    } finally {
      await tail.stop();
    }
  }, 90_000);
});
