import { describe, expect, it } from 'vitest';
import { useDemoWithBrowser } from './support/demo-with-browser.js';

const demo = useDemoWithBrowser();

describe('the demo page, in headless Chromium', () => {
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
