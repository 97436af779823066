import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { launchChromium } from '../../../apps/demo/src/screenshot/launch-chromium.js';
import { saveFailureScreenshot } from './demo-browser.js';
import { type DemoProcess, startDemo } from './demo-process.js';

/** The demo server a test file started, and a way to open its page in the shared Chromium. */
export interface DemoWithBrowser {
  /** The demo's URL; read it inside a test, once `beforeAll` has started the demo. */
  readonly url: string;
  /** Everything the demo printed, to check nothing secret reached its logs. */
  output(): string;
  /**
   * A fresh page on the demo, live on its event stream, 1400 × 1000 unless `viewport` says
   * otherwise; its screenshot is saved under test-results/ if the test fails.
   */
  openDesk(context: TestContext, viewport?: { width: number; height: number }): Promise<Page>;
}

/**
 * Starts the demo and Chromium side by side before the file's tests and stops both after them,
 * so every browser test file sets itself up the same way. Call it at the top of a test file;
 * `environment` adds to the demo's (`DEMO_REFUND_EXPIRY_MS`, say).
 *
 * @example
 * const demo = useDemoWithBrowser();
 * it('shows the desk', async (context) => {
 *   const page = await demo.openDesk(context);
 * });
 */
export function useDemoWithBrowser(environment: Record<string, string> = {}): DemoWithBrowser {
  let demo: DemoProcess | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    [demo, browser] = await Promise.all([startDemo(environment), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  });

  const started = () => {
    if (demo === undefined || browser === undefined)
      throw new Error('The demo is not started: call this inside a test.');
    return { demo, browser };
  };

  return {
    get url() {
      return started().demo.url;
    },
    output: () => started().demo.output(),
    async openDesk(context, viewport = { width: 1400, height: 1000 }) {
      const { demo, browser } = started();
      const page = await browser.newPage({ viewport });
      context.onTestFailed(() => saveFailureScreenshot(page, context.task.name));
      await page.goto(demo.url);
      await page.locator('.connection.live').waitFor();
      return page;
    },
  };
}
