/**
 * A public framework app run as its repository holds it: the extracted
 * folder given, its dependencies installed by its own package manager from
 * its own lockfile when it has none installed (pnpm-lock.yaml: pnpm
 * --frozen-lockfile; package-lock.json: npm ci; the npm registry only),
 * then `rtbench run <folder>` with the request given, on every runtime (or
 * those given), with any further options given, its table printed as the
 * run prints it. For the public Next.js app in the local mirror (its page
 * prints a millisecond timestamp per item, named for the same-work check):
 *
 *   mkdir -p /tmp/next-public && git --git-dir=/work/.mirror/t3dotgg+cf-vs-vercel-bench/repo archive HEAD next-bench/cf-edition | tar -x -C /tmp/next-public
 *   npx tsx scripts/measure/brought-files/public-app.ts /tmp/next-public/next-bench/cf-edition "GET /bench" node,bun,deno,workerd --normalize '1\d{12}'
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = join(import.meta.dirname, '../../..');
const [given, request = 'GET /', runtimes = 'node,bun,deno,workerd', ...options] = process.argv.slice(2);
if (!given) {
  process.stderr.write('usage: npx tsx scripts/measure/brought-files/public-app.ts <extracted app folder> ["GET /page"] [runtimes] [rtbench run options]\n');
  process.exit(2);
}
const app = resolve(given);
const quiet = { ...process.env, DO_NOT_TRACK: '1', NEXT_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', npm_config_update_notifier: 'false' };

/** The app's own install: the package manager its lockfile names. */
function install(): void {
  const [command, args] = existsSync(join(app, 'pnpm-lock.yaml'))
    ? ['npx', ['--yes', 'pnpm@10.34.9', 'install', '--frozen-lockfile']]
    : ['npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']];
  process.stderr.write(`installing ${app}'s dependencies: ${command} ${args.join(' ')}\n`);
  const r = spawnSync(command, args, { cwd: app, stdio: ['ignore', 'inherit', 'inherit'], env: quiet });
  if (r.status !== 0) {
    process.stderr.write(`its install failed (exit ${r.status})\n`);
    process.exit(2);
  }
}

if (!existsSync(join(app, 'node_modules'))) install();
const run = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', app, '--request', request, '--runtime', runtimes, ...options], { cwd: repoRoot, stdio: 'inherit', env: quiet });
process.exit(run.status ?? 1);
