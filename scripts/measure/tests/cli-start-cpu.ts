/**
 * The CPU of one `rtbench` start, per kind of command line: user + system
 * seconds of the CLI's process and every process it waited for, the median
 * of N starts (and the lowest and highest). The lines: `--version`,
 * `--help`, a smoke bench of the tiny suite on node (one round, fixed
 * warmup), and `report` of the run that bench saved. The bundle is built
 * before the first start counted. Run it on a quiet machine:
 *
 *   npx tsx scripts/measure/tests/cli-start-cpu.ts [--runs 9] [--only version,help,bench,report] [--checkout <dir>]
 *
 * --checkout: the rtbench checkout whose CLI is started (default this one), to
 * set two versions side by side.
 *
 * Linux: the children's CPU is read from /proc/self/stat (cutime, cstime) around each start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseProcStat, TICKS_PER_S } from '../../../test/helpers/cpu-budget.ts';
import { loadText, machineSpeedText } from '../../lib.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, only: { type: 'string' }, checkout: { type: 'string' } } });
const repoRoot = resolve(values.checkout ?? join(import.meta.dirname, '../../..'));
const CLI = join(repoRoot, 'packages', 'cli', 'bin', 'rtbench.mjs');
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: npx tsx scripts/measure/tests/cli-start-cpu.ts [--runs n] [--only version,help,bench,report] [--checkout <dir>]\n');
  process.exit(2);
}

/** CPU seconds of this process's waited-for children so far (user + system). */
function childrenCpu(): number {
  const { cutime, cstime } = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
  return (cutime + cstime) / TICKS_PER_S;
}

/** One start's CPU seconds; a start that fails stops the script. */
function start(args: readonly string[]): number {
  const before = childrenCpu();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const cpu = childrenCpu() - before;
  if (r.status !== 0) throw new Error(`rtbench ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return cpu;
}

const scratch = mkdtempSync(join(tmpdir(), 'rtbench-cli-start-'));
const saved = join(scratch, 'run.json');
const lines: Record<string, string[]> = {
  version: ['--version'],
  help: ['--help'],
  bench: ['bench', join(repoRoot, 'test', 'fixtures', 'tiny', 'index.ts'), '--runtime', 'node', '--filter', 'n=200', '--rounds', '1', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--quiet', '--save', saved],
  report: ['report', saved],
};
const chosen = values.only?.split(',') ?? Object.keys(lines);
const unknown = chosen.filter((name) => !(name in lines));
if (unknown.length) {
  process.stderr.write(`unknown line(s): ${unknown.join(', ')}; the lines: ${Object.keys(lines).join(', ')}\n`);
  process.exit(2);
}

try {
  // Builds the bundle if the sources changed, and saves the run `report` reads.
  start(lines.bench!);
  console.log(`rtbench start CPU (user+sys, s), median of ${runs}; node ${process.version}; ${machineSpeedText()}`);
  for (const name of chosen) {
    const cpu = Array.from({ length: runs }, () => start(lines[name]!)).sort((a, b) => a - b);
    const median = cpu[Math.floor(cpu.length / 2)]!;
    console.log(`${name.padEnd(8)} ${median.toFixed(2)}  (${cpu[0]!.toFixed(2)}–${cpu.at(-1)!.toFixed(2)})  rtbench ${lines[name]!.join(' ').replaceAll(repoRoot + '/', '').replaceAll(scratch, '<tmp>')}`);
  }
  console.log(`load at the end ${loadText()}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
