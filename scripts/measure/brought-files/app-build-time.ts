/**
 * How long a framework app takes before rtbench measures it: a test app
 * of test/fixtures/apps named by its folder (`sveltekit` when none is
 * given; installed by scripts/app-fixture.ts), or the app folder given (its dependencies
 * installed: scripts/measure/brought-files/public-app.ts installs them) with the request given, run on node and workerd, first
 * with its builds removed (built afresh), then again (the builds reused).
 * Per run: the seconds from the command's start to the build's end (the
 * line "built in"), to the start of measuring (the run's heading, "N cases
 * × runtimes × rounds", said once everything is built and prepared), to its
 * first measured job (the first progress line, said when a case × runtime's
 * round ends: a heavy page's round runs up to its time bound), and the
 * whole run's. Run alone
 * on a quiet machine:
 *
 *   npx tsx scripts/measure/brought-files/app-build-time.ts
 *   npx tsx scripts/measure/brought-files/app-build-time.ts astro "GET /"
 *   npx tsx scripts/measure/brought-files/app-build-time.ts /tmp/next-public/next-bench/cf-edition "GET /bench" --normalize '1\d{12}'
 *
 * (further arguments are options of the runs).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { suiteNameFor } from '../../../packages/adapters/src/suite-name.ts';
import { installedApp } from '../../app-fixture.ts';

const repoRoot = join(import.meta.dirname, '../../..');

interface Timed {
  built?: number;
  started?: number;
  measuring?: number;
  total: number;
  status: number | null;
}

function timedRun(app: string, request: string, options: readonly string[]): Promise<Timed> {
  const started = performance.now();
  const seconds = (): number => (performance.now() - started) / 1000;
  const out: Partial<Timed> = {};
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', app, '--runtime', 'node,workerd', '--rounds', '1', '--request', request, '--no-color', ...options], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let pending = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (out.built === undefined && /: built in \d+ s$/.test(line)) out.built = seconds();
        if (out.started === undefined && /: \d+ cases? × .* × \d+ rounds?$/.test(line)) out.started = seconds();
        if (out.measuring === undefined && line.startsWith('progress ')) out.measuring = seconds();
      }
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ ...out, total: seconds(), status }));
  });
}

const [given, request = 'GET /', ...options] = process.argv.slice(2);
// A bare name of a test app (no path) is installed from test/fixtures/apps; anything else is the app's folder.
const app = !given ? installedApp('sveltekit') : /^[\w-]+$/.test(given) && existsSync(join(repoRoot, 'test', 'fixtures', 'apps', given)) ? installedApp(given) : resolve(given);
// The app's builds are kept under its suite's name: its package.json's name, else its folder's.
const pkgName = (JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as { name?: unknown }).name;
rmSync(join(repoRoot, '.rtbench-cache', 'apps', suiteNameFor(typeof pkgName === 'string' && pkgName ? pkgName : basename(app))), { recursive: true, force: true });
const say = (what: string, t: Timed): void => {
  const at = (s: number | undefined): string => (s === undefined ? '—' : `${s.toFixed(1)} s`);
  process.stdout.write(`${what}: built at ${at(t.built)}, measuring from ${at(t.started)}, first job measured at ${at(t.measuring)}, done at ${at(t.total)} (exit ${t.status})\n`);
};
say('first run (built afresh)', await timedRun(app, request, options));
say('cached run (builds reused)', await timedRun(app, request, options));
