/**
 * One profiled comparison for the whole test run (the fixture pool,
 * test/helpers/pool.ts): the profile-hot fixture on two node arms that
 * differ only in how much work `slowHelper` does, its run saved with its
 * profiles, the page `--html` wrote and the one `--format html -o` wrote,
 * and what the command printed (with an HTML format on stdout, the profiles'
 * summary goes to stderr in the table's words). test/browser/flame.test.ts
 * draws its pages; test/profile-cli.test.ts reads its profiles and summary.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, runCliAsync } from './cli.ts';
import { pooled } from './pool.ts';

// The arms differ only in the hot helper's work: 10 iterations (~10% of the case) against 800 (~90%). Its
// share then grows by what the two steady helpers lose together, so it leads the movers by design, whichever
// tier each process's helpers were in when profiled (on a busy machine the helpers' shares vary several-fold
// between processes; with 200 iterations against 800 a steady helper led 1 run in 2 given a quarter of a core).
export const BASE = 'node PROFILE_HOT_SLOW=0.05';
export const CANDIDATE = 'node PROFILE_HOT_SLOW=4';

export interface ProfiledComparison {
  runPath: string;
  /** The page of `bench --format html -o`, of `--html`. */
  formatPage: string;
  htmlPage: string;
  stdout: string;
  stderr: string;
}

// A measuring run's profiles (1 s each), not a smoke run's: with a quarter of a core a smoke run's 300 ms CPU
// profiles held fewer than 100 samples and a steady helper led the movers.
export async function profiledComparison(): Promise<ProfiledComparison> {
  const files = (dir: string) => ({ runPath: join(dir, 'run.json'), formatPage: join(dir, 'format.html'), htmlPage: join(dir, 'html.html'), out: join(dir, 'stdout.txt'), err: join(dir, 'stderr.txt') });
  const dir = await pooled('profiled-comparison', async (into) => {
    const f = files(into);
    const r = await runCliAsync([
      'bench', fixture('profile-hot'), '--compare', BASE, CANDIDATE,
      '--rounds', '2', '--time', '50ms', '--warmup', '10ms', '--quiet', '--profile',
      '--save', f.runPath, '--html', f.htmlPage, '--format', 'html', '-o', f.formatPage,
    ]);
    if (r.status !== 0) throw new Error(`bench --profile failed (${r.status}): ${r.stderr}`);
    writeFileSync(f.out, r.stdout);
    writeFileSync(f.err, r.stderr);
  });
  const f = files(dir);
  return { runPath: f.runPath, formatPage: f.formatPage, htmlPage: f.htmlPage, stdout: readFileSync(f.out, 'utf8'), stderr: readFileSync(f.err, 'utf8') };
}
