/**
 * A/A tables of a React page of changing values: `rtbench run` of
 * scripts/measure/requests/same-work-aa/worker.js (a thousand Date.now() stamps and a locale
 * date per response) with `--compare node node`, N times, each table's
 * decided cells counted (a verdict word where both arms are one runtime is
 * a false alarm) and its `≠ work` cells (masking must prove the same work).
 * docs/requests.md, "Same work on changing responses".
 *
 *   npx tsx scripts/measure/requests/same-work-aa.ts [--tables 20] [-- more rtbench run options]
 *
 * Prints one line per table and the count of tables that decided no cell;
 * exits 1 when any table read `≠ work`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pairedComparisonView } from '@rtbench/report';
import { calibrationArgs, isDecided, loadText, machineSpeedText, readRun, repoRoot } from '../../lib.ts';

const { flag, benchArgs } = calibrationArgs(['aa', ...process.argv.slice(2)]);
const tables = flag('--tables', 20);
const worker = join('scripts', 'same-work-aa', 'worker.js');

let quiet = 0;
let differing = 0;
console.log(`same-work A/A: ${tables} tables of rtbench run ${worker} --request "GET /" --compare node node ${benchArgs.join(' ')}; ${machineSpeedText()}`);
for (let t = 1; t <= tables; t++) {
  const out = join(mkdtempSync(join(tmpdir(), 'rtbench-same-work-aa-')), 'run.json');
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', worker, '--request', 'GET /', '--compare', 'node', 'node', ...benchArgs, '--quiet', '--save', out], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  let run;
  try {
    run = readRun(out);
  } catch {
    console.log(`table ${t}: no run saved (exit ${r.status}): ${r.stderr.trim().split('\n').at(-1) ?? ''}`);
    continue;
  }
  const rows = pairedComparisonView(run).sections.flatMap((s) => s.cases);
  const decided = rows.filter((row) => isDecided(row.comparison?.verdict)).map((row) => `${row.label} ${row.comparison!.verdict}`);
  const notSame = run.digestMismatches.length + run.results.filter((x) => x.failures.some((f) => f.kind === 'digest-mismatch')).length;
  if (!decided.length) quiet++;
  if (notSame) differing++;
  console.log(`table ${t}: ${rows.length} cells, ${decided.length} decided${decided.length ? ` (${decided.join('; ')})` : ''}, ${notSame} ≠ work, ${seconds} s, exit ${r.status}, load ${loadText()}`);
}
console.log(`${quiet} of ${tables} tables decided no cell (target: at least ${Math.ceil(tables * 0.95)}); ${differing} read ≠ work (target: 0)`);
process.exit(differing ? 1 : 0);
