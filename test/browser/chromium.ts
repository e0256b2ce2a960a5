/**
 * Headless Chromium for the page tests and the README screenshots: Debian's
 * `chromium` package, driven by playwright-core (which never downloads a
 * browser of its own). The test set-up installs it when it is missing
 * (test/helpers/install-programs.ts); otherwise the error says how to install
 * it, or RTBENCH_CHROMIUM names another binary. The browser test fails with
 * that error: it never skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { pooled } from '../helpers/pool.ts';
import { chromiumEndpoint, SHARED_CHROMIUM, startChromiumServer } from '../helpers/shared-chromium.ts';
import { program } from '../helpers/system-programs.ts';

/**
 * Flags for a closed network: without the background-networking ones,
 * Chromium keeps trying to reach update and sync services.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A fresh browser context (no cookies, storage or cache from another file's pages) in the test run's one Chromium
 * (test/helpers/shared-chromium.ts), started by the first file that asks: a Chromium launched and closed per file
 * took more than a second of each file's time. Closing it closes the context, not the shared Chromium.
 */
export async function launchChromium(viewport = { width: 1200, height: 900 }): Promise<Browser> {
  const executablePath = await program('chromium');
  const dir = await pooled(SHARED_CHROMIUM, (into) => startChromiumServer(into, { executablePath, headless: true, args: CHROMIUM_ARGS }));
  const browser = await chromium.connect(chromiumEndpoint(dir));
  try {
    const context = await browser.newContext({ viewport });
    return {
      context,
      async close() {
        await context.close();
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** A headless Chromium of its own with a fresh profile directory, removed on close (the README's screenshots, outside a test run). */
export async function ownChromium(viewport = { width: 1200, height: 900 }): Promise<Browser> {
  const executablePath = await program('chromium');
  const profile = mkdtempSync(join(tmpdir(), 'rtbench-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: CHROMIUM_ARGS, viewport });
    return {
      context,
      async close() {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
