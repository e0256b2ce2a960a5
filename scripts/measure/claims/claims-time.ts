/**
 * How long `rtbench claims` takes over every suite that states claims, on the
 * default runtimes, and what it found: held / broken / undecided, per suite.
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/claims/claims-time.ts [--save <folder>] [-- extra claims args]
 *
 * Runs the real CLI once (its default budget: every set a fresh process per
 * variant, a case given sets while a check on it is undecided). Prints the
 * wall time, the load average before and after, and the counts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const extra = dashes === -1 ? [] : argv.slice(dashes + 1);
const save = own.includes('--save') ? own[own.indexOf('--save') + 1]! : join(mkdtempSync(join(tmpdir(), 'rtbench-claims-')), 'runs');

const before = machineSpeedText();
const started = performance.now();
const r = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'claims', '--save', save, '--format', 'json', ...extra], {
  cwd: repoRoot,
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 1 << 28,
});
const seconds = (performance.now() - started) / 1000;
if (!r.stdout) {
  process.stderr.write(`rtbench claims printed nothing (exit ${r.status})\n`);
  process.exit(1);
}
const view = JSON.parse(r.stdout) as { counts: Record<string, number>; outcomes: { suite: string; word: string }[] };
const perSuite = new Map<string, Record<string, number>>();
for (const o of view.outcomes) {
  const counts = perSuite.get(o.suite) ?? { held: 0, broken: 0, undecided: 0 };
  counts[o.word]!++;
  perSuite.set(o.suite, counts);
}
console.log(`rtbench claims over every suite: ${(seconds / 60).toFixed(1)} min (${seconds.toFixed(0)} s), exit ${r.status}; before: ${before}; load after ${loadText()}`);
console.log(`checks: ${view.outcomes.length}: ${view.counts.held} held, ${view.counts.broken} broken, ${view.counts.undecided} undecided`);
for (const [suite, c] of perSuite) console.log(`  ${suite}: ${c.held} held, ${c.broken} broken, ${c.undecided} undecided`);
console.log(`runs in ${save}`);
