/**
 * Takes `apps/demo/screenshot.png` for the README: starts the desk in this process on a free
 * port, plays a few stories up to interesting points through the page itself, and photographs
 * it with Debian's Chromium. Run with `npx -y pnpm@12.4.2 --filter @interlude/demo screenshot`.
 */
import { fileURLToPath } from 'node:url';
import { readDemoConfig } from '../config/read-demo-config.js';
import { createDesk } from '../desk/create-desk.js';
import { startDemoServer } from '../server/start-demo-server.js';
import { launchChromium } from './launch-chromium.js';

const desk = await createDesk({ ...readDemoConfig({}), port: 0 });
const server = await startDemoServer(desk, { host: '127.0.0.1', port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  const runTicket = async (ticketId: number) => {
    const response = page.waitForResponse(`**/api/tickets/${ticketId}/run`);
    await page.locator(`[data-ticket="${ticketId}"] button`).click();
    const { generationId } = (await (await response).json()) as { generationId: string };
    await page.locator(`[data-generation-id="${generationId}"]`).waitFor();
    await page.locator('[data-question], [data-final-answer]').first().waitFor();
  };
  await runTicket(101);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.locator('[data-final-answer]').waitFor();
  await runTicket(105);
  await runTicket(104);
  await runTicket(103);
  await page
    .locator('[data-question] input[name="answer"]')
    .fill('Chrome 131 on macOS, spinner then "session expired"');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('[data-kind="choice"]').waitFor();
  await page.locator('[data-span^="execute_tool set_priority"]').first().waitFor();
  await page.mouse.move(0, 0);
  const output = fileURLToPath(new URL('../../screenshot.png', import.meta.url));
  await page.screenshot({ path: output, fullPage: true });
  console.log(`saved ${output}`);
} catch (error) {
  await browser.contexts()[0]?.pages()[0]?.screenshot({ path: 'test-results/screenshot-failed.png' });
  throw error;
} finally {
  await browser.close();
  await server.close();
  await desk.close();
}
