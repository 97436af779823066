import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EVENTUALLY, expandEveryClip, runTicket } from './support/demo-browser.js';
import { queueTicketRun } from './support/demo-process.js';
import { useDemoWithBrowser } from './support/demo-with-browser.js';

const demo = useDemoWithBrowser();

/**
 * A person pasting a whole log: 24,000 characters of words and one 6,000-character run without a
 * space (a base64 blob), with no quote or newline, so the JSON the timeline and the trace show
 * holds it as typed.
 */
const LONG_ANSWER = (() => {
  const start = 'Chrome 131 on macOS: the login page spins, then says session expired. Log follows. ';
  const blob = `blob:${'QUJD'.repeat(1_500)}`;
  const words = 'retrying the token refresh after a timeout, ';
  let text = `${start}${blob} `;
  while (text.length < 24_000) text += words;
  return `${text.slice(0, 23_999)}!`;
})();

/** Runs the triage story with the long answer as the reporter's words, up to its second question. */
async function triageWithLongAnswer(page: Page): Promise<string> {
  const generationId = await runTicket(page, 103);
  const text = page.locator('[data-kind="text"]');
  await text.locator('input[name="answer"]').fill(LONG_ANSWER);
  await text.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('[data-kind="choice"]').waitFor(EVENTUALLY);
  await expect.poll(() => page.locator('[data-span^="execute_tool ask_reporter"]').count(), EVENTUALLY).toBe(2);
  return generationId;
}

/** The text of a clipped place, then the same after pressing its "Show all" button. */
async function clippedThenOpened(place: Locator): Promise<{ clipped: string; opened: string }> {
  const clipped = (await place.textContent()) ?? '';
  await place.getByRole('button', { name: /^Show all 2\d,\d{3} characters$/ }).click();
  const opened = (await place.textContent()) ?? '';
  return { clipped, opened };
}

describe('the demo page’s layout: long answers, narrow windows, the icon, in headless Chromium', () => {
  it('clips a 24,000-character answer in the question, the timeline, the trace and the final answer, each with a way to expand it', async (context) => {
    const page = await demo.openDesk(context);
    const generationId = await triageWithLongAnswer(page);
    const bodyText = async () => (await page.locator('body').textContent()) ?? '';
    // The answer is in five places at once; clipped, the whole page holds less than one copy.
    expect((await bodyText()).length).toBeLessThan(LONG_ANSWER.length / 2);

    const question = await clippedThenOpened(page.locator('[data-kind="choice"] .question-prompt'));
    expect(question.clipped.length).toBeLessThan(500);
    expect(question.opened).toContain(`Reporter says: ${LONG_ANSWER}`);
    await page.locator('[data-kind="choice"] .question-prompt').getByRole('button', { name: 'Show less' }).click();
    expect(((await page.locator('[data-kind="choice"] .question-prompt').textContent()) ?? '').length).toBeLessThan(
      500,
    );

    const completedTool = page.locator('[data-event="tool_completed"] .event-text').first();
    const timeline = await clippedThenOpened(completedTool);
    expect(timeline.clipped.length).toBeLessThan(300);
    expect(timeline.opened).toContain(`ask_reporter → {"reporter_said":"${LONG_ANSWER}"}`);

    const toolSpan = page.locator('[data-span^="execute_tool ask_reporter"] .span-details').last();
    const trace = await clippedThenOpened(toolSpan);
    expect(trace.clipped.length).toBeLessThan(400);
    expect(trace.opened).toContain(LONG_ANSWER);

    // Another generation's events redraw this one's timeline and trace: what was opened stays open.
    const otherId = await queueTicketRun(demo.url, 101);
    await expect.poll(() => page.locator(`#pending [data-generation="${otherId}"]`).count(), EVENTUALLY).toBe(1);
    expect(await completedTool.textContent()).toContain(LONG_ANSWER);
    expect(await toolSpan.textContent()).toContain(LONG_ANSWER);

    await page.locator('[data-kind="choice"]').getByRole('button', { name: 'Urgent: page the on-call' }).click();
    const final = page.locator('[data-final-answer] p');
    await expect.poll(() => final.textContent(), EVENTUALLY).toContain('triaged as urgent');
    const answer = await clippedThenOpened(final);
    expect(answer.clipped.length).toBeLessThan(700);
    expect(answer.opened).toContain(`Reporter says: ${LONG_ANSWER}`);
    expect(await page.locator('[data-generation-id]').textContent()).toBe(generationId);
  }, 90_000);

  it('fits a 420 px wide window: nothing scrolls sideways, with long answers clipped or opened', async (context) => {
    const page = await demo.openDesk(context, { width: 420, height: 900 });
    // Evaluated in the page (the tests' TypeScript has no DOM types): the page's width, the right
    // edge of its widest element, and the window's width.
    const overflow = () =>
      page.evaluate<{ scrollWidth: number; widest: number; window: number }>(`({
        scrollWidth: document.documentElement.scrollWidth,
        widest: Math.max(...[...document.querySelectorAll('body *')].map((element) => element.getBoundingClientRect().right)),
        window: window.innerWidth,
      })`);
    const fits = async (when: string) => {
      const measured = await overflow();
      expect.soft(measured.scrollWidth, `${when}: page width`).toBeLessThanOrEqual(measured.window);
      expect
        .soft(measured.widest, `${when}: the widest element's right edge`)
        .toBeLessThanOrEqual(measured.window + 0.5);
    };
    await fits('the desk as it opens');

    await triageWithLongAnswer(page);
    await fits('a long answer, clipped');
    expect(await expandEveryClip(page)).toBeGreaterThanOrEqual(3);
    await fits('a long answer, opened everywhere');

    await page.locator('[data-kind="choice"]').getByRole('button', { name: 'Low: next sprint' }).click();
    await expect.poll(() => page.locator('[data-final-answer]').count(), EVENTUALLY).toBe(1);
    await fits('the final answer');
  }, 90_000);

  it('serves /favicon.ico, and the page loads with no failed request', async (context) => {
    const failed: string[] = [];
    const page = await demo.openDesk(context);
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.reload();
    await page.locator('.connection.live').waitFor();
    const icon = await page.evaluate(async () => {
      const response = await fetch('/favicon.ico');
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        head: [...new Uint8Array(await response.arrayBuffer()).slice(0, 4)],
      };
    });
    expect(icon).toEqual({ status: 200, type: 'image/x-icon', head: [0, 0, 1, 0] });
    expect(failed).toEqual([]);
  });
});
