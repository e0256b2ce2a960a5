/**
 * Do the tests that start runtimes hold on a loaded machine? Runs the given
 * test files (default test/cli-runtimes.test.ts, where an empty
 * `workerd --version` was once seen) `--times` times in a row, with
 * `--neighbours` copies of a neighbour program (a CPU- and memory-busy
 * process, e.g. ../shared/tools/antagonist.mjs) running beside them the
 * whole time, and prints one line per repetition (passed, failed, wall time,
 * load average) and the failures' names. Exit 1 if any repetition failed.
 *
 *   npx tsx scripts/tests-under-load.ts --neighbour ../shared/tools/antagonist.mjs [--neighbours 2] [--times 10] [test files…]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot } from './lib.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const neighbour = option('--neighbour');
const neighbours = Number(option('--neighbours') ?? 2);
const times = Number(option('--times') ?? 10);
const files = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!neighbour || !Number.isInteger(neighbours) || neighbours < 0 || !Number.isInteger(times) || times < 1) {
  console.error('usage: npx tsx scripts/tests-under-load.ts --neighbour <program.mjs> [--neighbours 2] [--times 10] [test files…]');
  process.exit(2);
}
const tests = files.length ? files : ['test/cli-runtimes.test.ts'];

/** vitest's JSON report, as far as this reads it. */
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

const started: ChildProcess[] = Array.from({ length: neighbours }, () => spawn(process.execPath, [resolve(neighbour)], { stdio: 'ignore' }));
const stopNeighbours = (): void => {
  for (const child of started) child.kill('SIGKILL');
};
process.once('exit', stopNeighbours);

let failedRepetitions = 0;
const dir = mkdtempSync(join(tmpdir(), 'rtbench-under-load-'));
console.log(`${tests.join(' ')}: ${times} times beside ${neighbours} × ${neighbour}`);
for (let i = 1; i <= times; i++) {
  const report = join(dir, `${i}.json`);
  const t0 = performance.now();
  const r = spawnSync('npx', ['vitest', 'run', ...tests, '--reporter=json', `--outputFile=${report}`], { cwd: repoRoot, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  const seconds = (performance.now() - t0) / 1000;
  let result: VitestReport | undefined;
  try {
    result = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  } catch {
    /* no report: vitest itself failed */
  }
  const failures = result?.testResults.flatMap((f) => f.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName)) ?? ['(no report)'];
  if (r.status !== 0 || failures.length) failedRepetitions++;
  console.log(`${i}: ${result?.numPassedTests ?? 0} passed, ${result?.numFailedTests ?? '?'} failed, ${seconds.toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}, exit ${r.status}`);
  for (const name of failures) console.log(`   ✗ ${name}`);
}
console.log(`${times - failedRepetitions} of ${times} repetitions passed`);
stopNeighbours();
process.exitCode = failedRepetitions ? 1 : 0;
