/**
 * How the collector meets the in-process loop at one call a request against
 * several back to back (docs/requests.md, "What a steady figure counts"):
 * scripts/measure/requests/request-loop/gc-driver.js, bundled with the in-process Worker,
 * runs in a fresh process of each runtime under V8's `--trace-gc`, calling
 * the page's fetch + text() one request at a time, 5 ms apart; per runtime
 * and calls a request it prints, over the requests after the first
 * --from, the requests' wall time (p50), each kind of collection's count
 * and main-thread pause together, and the largest heap in use before one.
 * V8's runtimes only (the flag is V8's).
 *
 * `--read bytes` reads each call's body with arrayBuffer() instead of text().
 *
 *   npx tsx scripts/measure/requests/request-loop-gc.ts [--runtime node,deno] [--page react] [--calls 1,2] [--read bytes] [--requests 60] [--from 20]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleProgram } from '@rtbench/host-timed';
import { pluginForSpec } from '@rtbench/runtime-registry';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { median } from '../../../packages/stats/src/index.ts';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';
import { collectionsOf, tracedRequests } from './request-loop/gc-trace.ts';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = argv.indexOf(`--${name}`);
  return at < 0 ? fallback : (argv[at + 1] ?? fallback);
};
const specs = option('runtime', 'node,deno').split(',');
const page = option('page', 'react');
const callsList = option('calls', '1,2').split(',').map(Number);
const requests = Number(option('requests', '60'));
const from = Number(option('from', '20'));
const read = option('read', '') === 'bytes' ? '&read=bytes' : '';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-request-loop-gc-'));

/** The driver and the Worker as one file the runtime runs as it is, bundled as rtbench bundles a program for it; React built for production, as rtbench serves it. */
async function driverFor(plugin: RuntimePlugin): Promise<string> {
  return (await bundleProgram(join(repoRoot, 'scripts/measure/requests/request-loop/gc-driver.js'), plugin, 'none', `gc-driver-${plugin.name}`, dir, 'production')).path;
}

const fixed = (x: number, digits = 1): string => x.toFixed(digits);
console.log(`before: ${machineSpeedText()}; ${page} page${read ? ', bodies read as bytes' : ''}, ${requests} requests a process, figures over requests ${from}–${requests - 1}`);
console.log('runtime | calls a request | request p50 (wall) | young collections | their pause | full collections | their pause | most heap in use before one');
try {
  for (const spec of specs) {
    const plugin = pluginForSpec(spec);
    if (!plugin) throw new Error(`no runtime for ${spec}`);
    const target = await plugin.resolve(spec);
    const flags = plugin.translateFlags(['--trace-gc']);
    const driver = await driverFor(plugin);
    for (const calls of callsList) {
      // Every V8 runtime here runs a file given alone (deno without `run`).
      const r = spawnSync(target.binary, [...flags.args, driver, `page=${page}&calls=${calls}${read}`, String(requests)], { encoding: 'utf8', env: { ...process.env, ...flags.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
      if (r.status !== 0) {
        console.log(`${spec} | ${calls} | failed: ${(r.stderr || r.error?.message || '').split('\n')[0]}`);
        continue;
      }
      const steady = tracedRequests(r.stdout).slice(from);
      const c = collectionsOf(steady);
      console.log(`${spec} | ${calls} | ${fixed(median(steady.map((q) => q.ms)), 2)} ms | ${c.young} | ${fixed(c.youngMs)} ms | ${c.full} | ${fixed(c.fullMs)} ms | ${fixed(c.maxHeapMb, 0)} MB`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`load after: ${loadText()}`);
