/**
 * How the host's clock check (packages/measurers corroborate.ts) treats honest
 * smoke sets and a forger on a loaded machine. `--lanes` passes run at once
 * (as a test run's files do: each other's load, runtimes starting, warming
 * and waiting their turns), beside `--hogs` busy neighbours (a node process
 * each, spinning without a pause); each lane runs `--runs` passes, in turn:
 * two example files on all four runtimes (the tests' smoke budget), and a
 * node process whose every figure and span is shrunk 100x
 * (test/fixtures/brought/forging-preload.cjs). Per kind: the sets, those the
 * check refused, those that took turns beyond their planned ones (and how
 * many), and the load over the runs. The neighbours are ended by their PIDs.
 *
 *   npx tsx scripts/measure/lockstep/corroboration-under-load.ts [--runs 5] [--lanes 3] [--hogs 0] [--root <checkout>]
 *
 * `--root` runs another checkout's CLI (an earlier commit's, to compare). Run
 * it with nothing else measuring (`flock /tmp/rtbench-measure.lock …`): the
 * neighbours are the load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, lanes: { type: 'string', default: '3' }, hogs: { type: 'string', default: '0' }, root: { type: 'string', default: process.cwd() } } });
const runs = Number(values.runs);
const root = resolve(values.root);
const SMOKE = ['--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--quiet', '--rounds', '1'];

/** The runs of one pass: what each is, and its CLI arguments (a run saves to the file given after them). */
const KINDS: { kind: 'honest' | 'forger'; args: string[] }[] = [
  { kind: 'honest', args: ['run', 'examples/mitata-json.mjs', ...SMOKE, '--runtime', 'node,deno,bun,workerd'] },
  { kind: 'honest', args: ['run', 'examples/tinybench-strings.mjs', ...SMOKE, '--runtime', 'node,deno,bun,workerd'] },
  {
    kind: 'forger',
    args: ['bench', 'test/fixtures/tiny', '--runtime', `node NODE_OPTIONS=--require=${join(root, 'test/fixtures/brought/forging-preload.cjs')}`, '--filter', 'n=200', '--rounds', '2', '--time', '10ms', '--warmup', '10ms', '--fixed-warmup', '--quiet'],
  },
];

interface Tally {
  sets: number;
  refused: number;
  extended: number;
  addedTurns: number;
}
const tallies = { honest: { sets: 0, refused: 0, extended: 0, addedTurns: 0 }, forger: { sets: 0, refused: 0, extended: 0, addedTurns: 0 } } satisfies Record<string, Tally>;
const REFUSED = /host's clock allows|host waited|host's (clock|advanced)|host saw/;

/** A saved run's sets, read without the project's loader so an older checkout's runs read the same. */
function tallyRun(file: string, tally: Tally): void {
  const run = JSON.parse(readFileSync(file, 'utf8')) as { results: { failures: { message: string }[]; rounds: { lockstep?: { addedTurns?: number } }[] }[] };
  for (const result of run.results) {
    const refused = result.failures.filter((f) => REFUSED.test(f.message)).length;
    tally.sets += result.rounds.length + refused;
    tally.refused += refused;
    for (const round of result.rounds) {
      const added = round.lockstep?.addedTurns ?? 0;
      if (added) tally.extended++;
      tally.addedTurns += added;
    }
  }
}

/** One CLI run to its end. */
const cli = (args: string[]): Promise<void> =>
  new Promise((done) => spawn(process.execPath, [join(root, 'packages/cli/bin/rtbench.mjs'), ...args], { cwd: root, stdio: 'ignore' }).on('close', () => done()));

const hogs: ChildProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), 'rtbench-corroboration-'));
const loads: number[] = [];
/** A lane's passes, one run after another. */
async function lane(index: number): Promise<void> {
  for (let pass = 0; pass < runs; pass++) {
    for (const [k, { kind, args }] of KINDS.entries()) {
      const out = join(dir, `run-${index}-${pass}-${k}.json`);
      await cli([...args, '--save', out]);
      try {
        tallyRun(out, tallies[kind]);
      } catch {
        console.log(`lane ${index} pass ${pass}: ${args.slice(0, 2).join(' ')} saved no run`);
      }
      loads.push(loadavg()[0]!);
    }
  }
}
try {
  for (let i = 0; i < Number(values.hogs); i++) hogs.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  console.log(`${new Date().toISOString()}  ${root}  ${values.lanes} lanes of ${runs} passes, ${values.hogs} busy neighbours, load at start ${loadavg()[0]!.toFixed(1)}`);
  await Promise.all(Array.from({ length: Number(values.lanes) }, (_, i) => lane(i)));
} finally {
  for (const hog of hogs) hog.kill();
  rmSync(dir, { recursive: true, force: true });
}
const sorted = loads.sort((a, b) => a - b);
console.log(`load (1 min) over the runs: ${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)}, median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)}`);
for (const [kind, t] of Object.entries(tallies)) {
  console.log(`${kind.padEnd(7)} sets ${String(t.sets).padStart(4)}  refused ${String(t.refused).padStart(3)}  with added turns ${String(t.extended).padStart(3)} (${t.addedTurns} turns)`);
}
