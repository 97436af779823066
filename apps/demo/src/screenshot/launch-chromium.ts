import { type Browser, chromium } from 'playwright-core';

/** What Chromium needs to run headless in a container, without a GPU, a sandbox or background traffic. */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
];

/**
 * Debian's Chromium, headless, with the flags it needs in a container: one launch
 * for the README screenshot and the demo's browser tests, so both run the same browser the same way.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
}
