import { randomUUID } from 'node:crypto';
import { secretFormsIn } from '@interlude/core/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EVENTUALLY, expandEveryClip, runTicket } from './support/demo-browser.js';
import { queueTicketRun, recordEventStream, runCli, startCli } from './support/demo-process.js';
import { useDemoWithBrowser } from './support/demo-with-browser.js';

const demo = useDemoWithBrowser();

const finalAnswer = (page: Page) => page.locator('[data-final-answer]');

describe('the demo page, in headless Chromium against the started demo', () => {
  it('approves a refund: the worker resumes it and the final answer shows', async (context) => {
    const page = await demo.openDesk(context);
    await runTicket(page, 101);
    const question = page.locator('[data-kind="confirm"]');
    await expect
      .poll(() => question.locator('.question-prompt').textContent(), EVENTUALLY)
      .toBe('Refund $30 on order 1042?');
    await question.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => finalAnswer(page).textContent(), EVENTUALLY).toContain('Refunded $30 on order 1042');
    await expect.poll(() => page.locator('[data-status]').textContent(), EVENTUALLY).toBe('completed');
    const timeline = await page.locator('[data-timeline]').textContent();
    expect(timeline).toContain('resumed');
    expect(timeline).toContain('issue_refund → {"refunded":30,"order_id":1042}');
    await expect.poll(() => page.locator('[data-span^="execute_tool issue_refund"]').count(), EVENTUALLY).toBe(2);
  });

  it('declines a refund: the refund tool never runs and the model reads the refusal', async (context) => {
    const page = await demo.openDesk(context);
    await runTicket(page, 102);
    await page.locator('[data-kind="confirm"]').getByRole('button', { name: 'Decline' }).click();
    await expect.poll(() => finalAnswer(page).textContent(), EVENTUALLY).toContain('declined the $45 refund');
    const timeline = await page.locator('[data-timeline]').textContent();
    expect(timeline).toContain('issue_refund → error {"error":"declined by user"}');
    expect(timeline).not.toContain('"refunded"');
  });

  it('answers the triage text, then its choice, in one generation that pauses twice', async (context) => {
    const page = await demo.openDesk(context);
    const generationId = await runTicket(page, 103);
    const text = page.locator('[data-kind="text"]');
    await text.locator('input[name="answer"]').fill('Chrome on macOS: spinner, then "session expired"');
    await text.getByRole('button', { name: 'Send', exact: true }).click();
    const choice = page.locator('[data-kind="choice"]');
    await expect
      .poll(() => choice.locator('.question-prompt').textContent(), EVENTUALLY)
      .toContain('Priority for ticket 103?');
    await choice.getByRole('button', { name: 'Urgent: page the on-call' }).click();
    await expect.poll(() => finalAnswer(page).textContent(), EVENTUALLY).toContain('triaged as urgent');
    expect(await finalAnswer(page).textContent()).toContain('"session expired"');
    expect(await page.locator('[data-generation-id]').textContent()).toBe(generationId);
    await expect.poll(() => page.locator('[data-event="input_requested"]').count(), EVENTUALLY).toBe(2);
  });

  it('takes a typed answer "false" as the text it is: only the Decline button declines', async (context) => {
    const page = await demo.openDesk(context);
    await runTicket(page, 103);
    const text = page.locator('[data-kind="text"]');
    await text.locator('input[name="answer"]').fill('false');
    await text.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(() => page.locator('[data-kind="choice"] .question-prompt').textContent(), EVENTUALLY)
      .toContain('Priority for ticket 103? Reporter says: false');
    const timeline = await page.locator('[data-timeline]').textContent();
    expect(timeline).toContain('ask_reporter → {"reporter_said":"false"}');
    expect(timeline).not.toContain('declined');
  });

  it('answers a deploy token behind an approval gate; the token is in no form in the page, the event stream, the trace or the terminal client', async (context) => {
    const events = recordEventStream(demo.url);
    await events.ready;
    const tail = startCli(demo.url, ['tail']);
    const page = await demo.openDesk(context);
    // Quotes, a backslash, a slash, a plus and letters outside ASCII: every encoding differs from the text.
    const token = `tok-${randomUUID()}-Ünï "kéy" /+? \\ ??`;
    await expect.poll(() => tail.output(), EVENTUALLY).toContain('Following input_requested events');
    const generationId = await runTicket(page, 104);
    const gate = page.locator('[data-kind="confirm"]');
    await expect
      .poll(() => gate.locator('.question-title').textContent(), EVENTUALLY)
      .toContain('Approval gate: deploy_release');
    await gate.getByRole('button', { name: 'Approve' }).click();
    const secret = page.locator('[data-kind="secret"] input[type="password"]');
    await secret.fill(token);
    await page.getByRole('button', { name: 'Send secret' }).click();
    await expect
      .poll(() => finalAnswer(page).textContent(), EVENTUALLY)
      .toContain('checkout 2.4.1 is live in production');
    // The tool received the token and echoed it; core filtered it before anything else saw it.
    // Its echo is long: show every clipped text whole, so all of the page is checked.
    await expect.poll(() => page.locator('[data-span^="execute_tool deploy_release"]').count(), EVENTUALLY).toBe(3);
    expect(await expandEveryClip(page)).toBeGreaterThan(0);
    expect(await finalAnswer(page).textContent()).toContain('"authorized_with":"[FILTERED]"');

    // Every form the tool wrote reached the page, each one filtered.
    expect(await finalAnswer(page).textContent()).toContain('"basic_auth":"Basic ZGVwbG95O');
    const trace = await (await fetch(`${demo.url}/api/generations/${generationId}/trace`)).text();
    const log = await (await fetch(`${demo.url}/api/generations/${generationId}/events`)).text();
    const replay = await runCli(demo.url, ['replay', generationId]);
    await tail.stop();
    events.stop();
    expect(events.text()).toContain(`"generation_id":"${generationId}"`);
    expect(events.text()).toContain('"event":"completed"');
    expect(replay).toContain('deploy_release -> {"deployed":"checkout@2.4.1"');
    expect(tail.output()).toContain(`[toolu_deploy_01] secret: Deploy token for checkout in production`);
    const seen = {
      page: await page.content(),
      'page text': (await page.locator('body').textContent()) ?? '',
      'event stream': events.text(),
      trace,
      'event log': log,
      'demo output': demo.output(),
      'cli replay': replay,
      'cli tail': tail.output(),
    };
    for (const [sink, text] of Object.entries(seen)) {
      // Those that show the tool's result show it filtered (the demo's log and `tail` never show one).
      if (sink !== 'demo output' && sink !== 'cli tail') expect.soft(text, sink).toContain('[FILTERED]');
      expect.soft(secretFormsIn(text, token), sink).toEqual([]);
    }
    expect(await page.locator('input[type="password"]').count()).toBe(0);
  });

  it('keeps a press on "Run agent" that a redraw lands in the middle of', async (context) => {
    const page = await demo.openDesk(context);
    await expect.poll(() => page.locator('body').getAttribute('data-refreshing'), EVENTUALLY).toBe('0');
    const button = page.locator('[data-ticket="102"]').getByRole('button', { name: 'Run agent' });
    const box = await button.boundingBox();
    if (box === null) throw new Error('The Run agent button of ticket 102 is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // Another generation starts meanwhile: its events redraw the lists, the tickets among them.
    const other = await queueTicketRun(demo.url, 101);
    await page.locator(`#generations [data-generation="${other}"]`).waitFor();
    const response = page.waitForResponse('**/api/tickets/102/run');
    await page.mouse.up();
    const { generationId } = (await (await response).json()) as { generationId: string };
    await expect.poll(() => page.locator('[data-generation-id]').textContent(), EVENTUALLY).toBe(generationId);
  });

  it('runs the manager, which delegates to the billing agent, then asks to confirm the credit', async (context) => {
    const page = await demo.openDesk(context);
    // The page's first read of the generation's events answers last, after the question shows.
    const stale = await holdFirstAnswer(page, /\/api\/generations\/[^/]+\/events$/);
    const managerId = await runTicket(page, 105);
    const question = page.locator('[data-kind="confirm"]');
    await expect
      .poll(() => question.locator('.question-prompt').textContent(), EVENTUALLY)
      .toBe('Credit Lena Park $49 for INV-3108?');
    // Shown with the question: the timeline that led to it, the billing agent's answer included…
    expect(await page.locator('[data-timeline]').textContent()).toContain('INV-3108 is the duplicate');
    // …and still once the older read has answered (it put back the timeline from before).
    await stale.release();
    await expect.poll(() => page.locator('body').getAttribute('data-refreshing'), EVENTUALLY).toBe('0');
    expect(await page.locator('[data-timeline]').textContent()).toContain('INV-3108 is the duplicate');
    await question.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => finalAnswer(page).textContent(), EVENTUALLY).toContain('Credited Lena Park $49');
    await expect.poll(() => page.locator('[data-span^="invoke_agent billing"]').count(), EVENTUALLY).toBe(1);
    expect(await page.locator('#generations').textContent()).toContain('billing.investigate · delegated');

    // The delegated generation's trace: only billing's spans, naming the manager's run that holds them.
    await page.locator('#generations li', { hasText: 'billing.investigate · delegated' }).first().click();
    const parent = page.locator('[data-trace-parent]');
    await expect.poll(() => parent.getAttribute('data-trace-parent'), EVENTUALLY).toBe(managerId);
    expect(await parent.textContent()).toContain('Delegated by manager.escalate');
    expect(await page.locator('[data-span^="invoke_agent billing"]').count()).toBe(1);
    expect(await page.locator('[data-span^="execute_tool list_invoices"]').count()).toBe(1);
    expect(await page.locator('[data-span^="invoke_agent manager"]').count()).toBe(0);
    expect(await page.locator('[data-span^="execute_tool issue_credit"]').count()).toBe(0);
    await parent.getByRole('button', { name: 'manager.escalate' }).click();
    await expect.poll(() => page.locator('[data-generation-id]').textContent(), EVENTUALLY).toBe(managerId);
    await expect.poll(() => page.locator('[data-span^="invoke_agent manager"]').count(), EVENTUALLY).toBe(2);
  });
});

/**
 * Answers the page's first request matching `url` with what the server said then, but only once
 * `release()` is called: a slow answer, overtaken by the requests after it.
 */
async function holdFirstAnswer(page: Page, url: RegExp): Promise<{ release(): Promise<void> }> {
  let answer: Promise<() => Promise<void>> | undefined;
  await page.route(url, async (route) => {
    if (answer !== undefined) return route.continue();
    answer = route.fetch().then((response) => () => route.fulfill({ response }));
  });
  return {
    async release() {
      await (await answer)?.();
    },
  };
}
