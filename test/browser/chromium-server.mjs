/**
 * The test run's one Chromium: Playwright's browser server, which every
 * browser test file connects to (test/browser/chromium.ts, launchChromium).
 * The first file to ask starts it through the fixture pool; it outlives that
 * file, and stops on SIGTERM (the run's end: stopSharedChromium) or once the
 * vitest process that ran the tests is gone.
 *
 *   node chromium-server.mjs <dir> <vitest pid> <launchServer options as JSON>
 *
 * Writes <dir>/pid at once, <dir>/endpoint (the address to connect to) when
 * Chromium listens or <dir>/failed (why not), and <dir>/stat (this process's
 * /proc stat, Chromium reaped: its CPU) when stopped.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [dir, watched, options] = process.argv.slice(2);
const write = (name, text) => {
  writeFileSync(join(dir, `${name}.part`), text);
  renameSync(join(dir, `${name}.part`), join(dir, name));
};
write('pid', String(process.pid));

let server;
try {
  server = await chromium.launchServer({ ...JSON.parse(options), handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
} catch (error) {
  write('failed', error instanceof Error ? error.message : String(error));
  process.exit(1);
}
write('endpoint', server.wsEndpoint());

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close().catch(() => {});
  write('stat', readFileSync('/proc/self/stat', 'utf8'));
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// A run that ended without stopping it (vitest killed): its process is gone, and so is the reason to run.
setInterval(() => {
  try {
    process.kill(Number(watched), 0);
  } catch {
    void stop();
  }
}, 1000);
