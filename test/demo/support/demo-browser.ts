import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/** Where a failing test leaves its screenshot: `test-results/` at the repository root (git-ignored). */
export const RESULTS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test-results');

/**
 * How long a test waits for the page to catch up: a resume goes through the worker and the model
 * server, and the whole suite shares two cores with other servers, so give it room.
 */
export const EVENTUALLY = { timeout: 15_000 };

/** Saves a full-page screenshot named after the test, for a failure to be looked at. */
export async function saveFailureScreenshot(page: Page, testName: string): Promise<void> {
  await mkdir(RESULTS_DIRECTORY, { recursive: true });
  const file = `demo-${testName.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`;
  await page.screenshot({ path: join(RESULTS_DIRECTORY, file), fullPage: true }).catch(() => undefined);
}

/** Clicks "Run agent" on a ticket and waits until the page shows the new generation; returns its id. */
export async function runTicket(page: Page, ticketId: number): Promise<string> {
  const response = page.waitForResponse(`**/api/tickets/${ticketId}/run`);
  await page.locator(`[data-ticket="${ticketId}"]`).getByRole('button', { name: 'Run agent' }).click();
  const { generationId } = (await (await response).json()) as { generationId: string };
  await page.locator(`[data-generation-id="${generationId}"]`).waitFor();
  return generationId;
}

/** Presses every "Show all" button on the page, so long texts show whole (clipped ones hide the rest). */
export async function expandEveryClip(page: Page): Promise<number> {
  const showAll = page.getByRole('button', { name: /^Show all/ });
  let pressed = 0;
  // Each press turns that button into "Show less", so the first one left is always a new one.
  while ((await showAll.count()) > 0) {
    await showAll.first().click();
    pressed += 1;
  }
  return pressed;
}
