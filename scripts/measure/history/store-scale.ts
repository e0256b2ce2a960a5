/**
 * `rtbench history` at a fleet's scale, through the results store
 * (packages/results-store): N synthetic saved runs (test/history-synthetic.ts)
 * written into a fresh folder, then the CLI's history over it, each a start
 * of its own: the first reads every file and fills the store (ingest), the
 * next two are answered from it, in the terminal's format (what it shows of
 * each series) and as JSON (every point), and, once the folder has been
 * unchanged for 4 s, the terminal's again as a reader repeats it (no file
 * stat-ed), with one run saved since (a CI gate's history), and once more
 * with no walk kept (walk-checkpoint.ts: walked from the first run). Prints the ingest per
 * run and each stored history's wall time and peak resident memory (GNU
 * time's maximum RSS, and its CPU time), the figures docs/history.md's targets name (history ≤ 1 s and ≤ 300 MB once
 * ingested; ingest ≤ 50 ms a run). A figure of the machine it runs on: run it
 * alone on a quiet one; its speed that hour is printed at the start and the end.
 *
 *   npx tsx scripts/measure/history/store-scale.ts [--runs 10000] [--cases 8] [--variants 4] [--rounds 10] [--samples 15] [--keep]
 *
 * Runs carry no project commit, so the history is ordered by start time and
 * git is not asked. The folder is removed after unless --keep.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machineSpeedText } from '../../lib.ts';
import { STORE_FILE } from '../../../packages/results-store/src/index.ts';
import { openDatabase } from '../../../packages/results-store/src/sqlite-store.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10000' },
    cases: { type: 'string', default: '8' },
    variants: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '10' },
    samples: { type: 'string', default: '15' },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const cases = Array.from({ length: Number(values.cases) }, (_, i) => ({ id: `case ${i + 1}`, ns: 1000 * (i + 1) }));
const variants = Array.from({ length: Number(values.variants) }, (_, i) => `node@${20 + 2 * i}`);
const cli = join(import.meta.dirname, '../../../packages/cli/bin/rtbench.mjs');
const gnuTime = '/usr/bin/time';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-store-scale-'));
console.log(`this machine at the start: ${machineSpeedText()}`);
try {
  const day = Date.UTC(2026, 0, 1);
  /** The folder's run `i`, an hour after run i − 1. */
  const writeScaleRun = (i: number): void => {
    const [run] = historyRuns([{ factor: 1, startedAt: new Date(day + i * 3_600_000).toISOString() }], { cases, variants, rounds: Number(values.rounds), samplesPerRound: Number(values.samples), seed: 11 + i * 7919, suite: 'scale' });
    writeRun(join(dir, `run-${String(i).padStart(6, '0')}.json`), { ...run!, id: `scale-${i}` });
  };
  // One run at a time: 10,000 runs held at once would be gigabytes.
  for (let i = 0; i < runs; i++) writeScaleRun(i);
  console.log(`${runs} runs of ${cases.length} cases × ${variants.length} variants × ${values.rounds} rounds of ${values.samples} samples in ${dir}`);
  // The first start may build the CLI's bundle: not a history's cost.
  spawnSync(process.execPath, [cli, '--version'], { stdio: 'ignore' });

  const history = (format: string): { seconds: number; peakMb?: number; cpuSeconds?: number } => {
    const args = [cli, 'history', dir, '--format', format, '--quiet'];
    const timed = existsSync(gnuTime);
    const started = process.hrtime.bigint();
    const r = timed ? spawnSync(gnuTime, ['-f', 'peak-kb %M cpu %U %S', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }) : spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (r.status !== 0) throw new Error(`history exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const time = /peak-kb (\d+) cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
    return { seconds, ...(time ? { peakMb: Number(time[1]) / 1024, cpuSeconds: Number(time[2]) + Number(time[3]) } : {}) };
  };
  const mb = (x: number | undefined): string => (x === undefined ? `unknown (no ${gnuTime})` : `${x.toFixed(0)} MB`);
  // The process's own CPU time (user + system): what a figure taken beside other work can still compare, back to back.
  const cpu = (x: number | undefined): string => (x === undefined ? '' : `, ${x.toFixed(2)} s CPU`);
  const ingest = history('terminal');
  console.log(`ingest (the first history, every file read and stored): ${ingest.seconds.toFixed(1)} s, ${((ingest.seconds * 1000) / runs).toFixed(1)} ms a run; peak ${mb(ingest.peakMb)}${cpu(ingest.cpuSeconds)}`);
  // What a reader sees (the newest runs and every change point), then every point, streamed as JSON.
  for (const format of ['terminal', 'json']) {
    const stored = history(format);
    console.log(`history from the store, --format ${format}: ${stored.seconds.toFixed(2)} s; peak ${mb(stored.peakMb)}${cpu(stored.cpuSeconds)}`);
  }
  // A folder its store has read, unchanged for longer than the folder-time rule's step, is answered without a stat of
  // each file (results-store folder-stamp.ts): one history keeps the folder's time, the next is the one a reader repeats.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4_000);
  history('terminal');
  const repeated = history('terminal');
  console.log(`history again, the folder unchanged, --format terminal: ${repeated.seconds.toFixed(2)} s; peak ${mb(repeated.peakMb)}${cpu(repeated.cpuSeconds)}`);
  // A gate's history: one run saved since the last history, its file read and stored, the walk gone on from the last.
  writeScaleRun(runs);
  const appended = history('terminal');
  console.log(`history with one run appended, --format terminal: ${appended.seconds.toFixed(2)} s; peak ${mb(appended.peakMb)}${cpu(appended.cpuSeconds)}`);
  // The same history with no walk kept (a filter not asked before walks from the first run too).
  const db = openDatabase(join(dir, STORE_FILE));
  db.exec('DELETE FROM walk_checkpoints');
  db.close();
  const unkept = history('terminal');
  console.log(`history again, no walk kept (walked from the first run), --format terminal: ${unkept.seconds.toFixed(2)} s; peak ${mb(unkept.peakMb)}${cpu(unkept.cpuSeconds)}`);
  console.log(`this machine at the end: ${machineSpeedText()}`);
} finally {
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
