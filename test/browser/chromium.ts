/**
 * Headless Chromium for the page tests and the README screenshots: Debian's
 * `chromium` package, driven by playwright-core (which never downloads a
 * browser of its own). When the browser is missing it is installed with
 * apt-get if we may (root, or passwordless sudo); otherwise the error says
 * how to install it. The browser test fails with that error: it never skips.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ensureDebianProgram } from '../helpers/debian-package.ts';

/** RTBENCH_CHROMIUM names another Chromium binary (e.g. on a machine without Debian's packages). */
export const CHROMIUM_PATH = process.env.RTBENCH_CHROMIUM ?? '/usr/bin/chromium';

const HOW_TO_INSTALL = `install Debian's Chromium with \`sudo apt-get install -y chromium\`, or point RTBENCH_CHROMIUM at a Chromium binary`;

/** The Chromium binary, installed from Debian's packages first if it is missing and we may install it. Throws with instructions otherwise. */
export function ensureChromium(): string {
  return ensureDebianProgram({
    path: CHROMIUM_PATH,
    pkg: 'chromium',
    howToInstall: HOW_TO_INSTALL,
    purpose: 'browser tests',
    ...(process.env.RTBENCH_CHROMIUM ? { named: 'RTBENCH_CHROMIUM' } : {}),
  });
}

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

/** A headless Chromium with a fresh profile directory, removed on close. */
export async function launchChromium(viewport = { width: 1200, height: 900 }): Promise<Browser> {
  const executablePath = ensureChromium();
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
