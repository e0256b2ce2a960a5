/**
 * Headless Chromium for the page tests and the README screenshots: Debian's
 * `chromium` package, driven by playwright-core (which never downloads a
 * browser of its own). When the browser is missing it is installed with
 * apt-get if we may (root, or passwordless sudo); otherwise the error says
 * how to install it. The browser test fails with that error: it never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** RTBENCH_CHROMIUM names another Chromium binary (e.g. on a machine without Debian's packages). */
export const CHROMIUM_PATH = process.env.RTBENCH_CHROMIUM ?? '/usr/bin/chromium';

const HOW_TO_INSTALL = `install Debian's Chromium with \`sudo apt-get install -y chromium\`, or point RTBENCH_CHROMIUM at a Chromium binary`;

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

function tail(text: string, lines = 15): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

/** The Chromium binary, installed from Debian's packages first if it is missing and we may install it. Throws with instructions otherwise. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.env.RTBENCH_CHROMIUM) throw new Error(`RTBENCH_CHROMIUM=${CHROMIUM_PATH} does not exist; ${HOW_TO_INSTALL}`);
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && run('sudo', ['-n', 'true']).ok;
  if (!isRoot && !sudo) throw new Error(`Chromium is not installed at ${CHROMIUM_PATH} and this user cannot install it (not root, no passwordless sudo): ${HOW_TO_INSTALL}`);
  if (!run('apt-get', ['--version']).ok) throw new Error(`Chromium is not installed at ${CHROMIUM_PATH} and apt-get is not available here: ${HOW_TO_INSTALL}`);
  const apt = (args: string[]): { ok: boolean; output: string } => (sudo ? run('sudo', ['-n', 'apt-get', ...args]) : run('apt-get', args));
  process.stderr.write(`browser tests: installing Debian's chromium package (once; it is missing at ${CHROMIUM_PATH})\n`);
  const update = apt(['update', '-qq']);
  if (!update.ok) throw new Error(`apt-get update failed while installing Chromium:\n${tail(update.output)}\n${HOW_TO_INSTALL}`);
  const install = apt(['install', '-y', '-qq', 'chromium']);
  if (!install.ok || !existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium failed:\n${tail(install.output)}\n${HOW_TO_INSTALL}`);
  return CHROMIUM_PATH;
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
