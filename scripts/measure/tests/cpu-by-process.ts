/**
 * Where a command's CPU goes, by kind of process: runs it under
 * `perf record -e task-clock` (inherited by every process it starts, one
 * sample per CPU-millisecond), reads each process's command line from /proc
 * while it runs, and sums the samples by kind: the rtbench CLI's own process,
 * vitest's, and every other program by the name it ran under, said as
 * started below the CLI or by a test. For the test suite:
 *
 *   npx tsx scripts/measure/tests/cpu-by-process.ts /tmp/cpu-by-process -- npx vitest run <files>
 *
 * Needs perf (root, or perf_event_paranoid ≤ 0). Run it on a quiet machine.
 * A second call with the same folder and no command reads its record again.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PERIOD_NS = 1_000_000;
const [out, separator, ...command] = process.argv.slice(2);
if (!out || (separator !== undefined && separator !== '--') || (separator === '--' && !command.length)) {
  process.stderr.write('usage: npx tsx scripts/measure/tests/cpu-by-process.ts <folder> [-- <command...>]\n');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const record = join(out, 'perf.data');
const argvFile = join(out, 'argv.json');

/** A process's command line, read again while it is young: a child shows its parent's until it runs its own program. */
const argvs = new Map<number, { argv: string; seen: number }>();
function poll(tick: number): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const known = argvs.get(pid);
    if (known && tick - known.seen > 10) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      if (argv) argvs.set(pid, { argv: argv.slice(0, 300), seen: known?.seen ?? tick });
    } catch {
      /* gone */
    }
  }
}

if (command.length) {
  let tick = 0;
  const timer = setInterval(() => poll(++tick), 40);
  const child = spawn('perf', ['record', '-q', '-e', 'task-clock', '-c', String(PERIOD_NS), '-o', record, '--', ...command], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  writeFileSync(argvFile, JSON.stringify([...argvs].map(([pid, a]) => [pid, a.argv])));
  process.stderr.write(`the command ended with ${code}\n`);
}
if (!existsSync(record) || !existsSync(argvFile)) {
  process.stderr.write(`no record in ${out}: give the command after --\n`);
  process.exit(2);
}

const argvOf = new Map<number, string>(JSON.parse(readFileSync(argvFile, 'utf8')) as [number, string][]);
const script = execFileSync('perf', ['script', '-i', record, '-F', 'pid,tid,comm,period', '--show-task-events'], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
const parent = new Map<number, number>();
const firstProgram = new Map<number, string>();
const lastProgram = new Map<number, string>();
const cpuMs = new Map<number, number>();
for (const line of script.split('\n')) {
  let m: RegExpExecArray | null;
  if ((m = /PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)/.exec(line))) {
    if (m[1] !== m[2]) parent.set(Number(m[1]), Number(m[2]));
  } else if ((m = /PERF_RECORD_COMM exec: (.+):(\d+)\/\d+/.exec(line))) {
    const pid = Number(m[2]);
    if (!firstProgram.has(pid)) firstProgram.set(pid, m[1]!);
    lastProgram.set(pid, m[1]!);
  } else if ((m = /^\s*.+?\s+(\d+)\/\d+\s+(\d+)\s*$/.exec(line))) {
    cpuMs.set(Number(m[1]), (cpuMs.get(Number(m[1])) ?? 0) + Number(m[2]) / 1e6);
  }
}

/** Programs that run another one in their own process (the name of the one they run is what counts). */
const WRAPPERS = new Set(['taskset', 'env', 'nice', 'timeout']);
const kinds = new Map<number, string>();
function kindOf(pid: number | undefined): string {
  if (pid === undefined) return 'the command';
  const known = kinds.get(pid);
  if (known) return known;
  const above = kindOf(parent.get(pid));
  const argv = argvOf.get(pid) ?? '';
  const first = firstProgram.get(pid);
  const program = first && !WRAPPERS.has(first) ? first : (lastProgram.get(pid) ?? first ?? '?');
  const belowCli = above.startsWith('rtbench CLI') || above.includes('below the CLI');
  let kind: string;
  if (!belowCli && /(rtbench\.mjs|packages\/cli\/src\/bin\.ts)$/.test(argv.split(' ')[1] ?? '')) kind = 'rtbench CLI (its own process)';
  else if (!belowCli && /vitest/.test(argv)) kind = above.startsWith('vitest') ? 'vitest worker' : 'vitest';
  else if (pid === [...parent.keys()][0] || above === 'the command') kind = `the command (${program})`;
  else kind = `${program} ${belowCli ? 'below the CLI' : 'started by a test or set-up'}`;
  kinds.set(pid, kind);
  return kind;
}

const byKind = new Map<string, { ms: number; processes: number }>();
for (const [pid, ms] of cpuMs) {
  const entry = byKind.get(kindOf(pid)) ?? { ms: 0, processes: 0 };
  entry.ms += ms;
  entry.processes += 1;
  byKind.set(kindOf(pid), entry);
}
const total = [...byKind.values()].reduce((sum, e) => sum + e.ms, 0);
console.log(`${(total / 1000).toFixed(1)} CPU-s in all (processes with at least one sample)`);
for (const [kind, e] of [...byKind].sort((a, b) => b[1].ms - a[1].ms)) {
  console.log(`${(e.ms / 1000).toFixed(1).padStart(8)} s ${((100 * e.ms) / total).toFixed(1).padStart(5)}% ${String(e.processes).padStart(5)} processes  ${kind}`);
}
const cli = [...cpuMs].filter(([pid]) => kindOf(pid).startsWith('rtbench CLI')).map(([, ms]) => ms).sort((a, b) => a - b);
if (cli.length) console.log(`rtbench CLI processes: ${cli.length}, their own CPU: median ${cli[cli.length >> 1]!.toFixed(0)} ms, 10% ${cli[Math.floor(cli.length / 10)]!.toFixed(0)} ms, 90% ${cli[Math.floor((cli.length * 9) / 10)]!.toFixed(0)} ms`);
