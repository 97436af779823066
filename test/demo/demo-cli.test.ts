import { describe, expect, it } from 'vitest';
import { EVENTUALLY, runTicket } from './support/demo-browser.js';
import { runCli, startCli } from './support/demo-process.js';
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
    const response = await fetch(`${demo.url}/api/tickets/103/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const { generationId } = (await response.json()) as { generationId: string };
    await expect.poll(async () => runCli(demo.url, ['pending']), EVENTUALLY).toContain(generationId);
    await runCli(demo.url, ['answer', generationId, 'toolu_ask_01', 'Safari 18, blank page']);
    await expect
      .poll(async () => runCli(demo.url, ['pending']), EVENTUALLY)
      .toContain(`${generationId}  toolu_priority_01  choice`);
    const refused = runCli(demo.url, ['answer', generationId, 'toolu_priority_01', 'whenever']);
    await expect(refused).rejects.toThrow(/takes one of: low, normal, urgent/);
    expect(await runCli(demo.url, ['answer', generationId, 'toolu_priority_01', 'low'])).toContain(
      'the worker resumes',
    );
  }, 90_000);

  it('tails input_requested events as generations pause', async () => {
    const tail = startCli(demo.url, ['tail']);
    try {
      await expect.poll(() => tail.output(), EVENTUALLY).toContain('Following input_requested events');
      const response = await fetch(`${demo.url}/api/tickets/104/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      const { generationId } = (await response.json()) as { generationId: string };
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
