/** Shared by the figure scripts: run the real CLI and read back its run. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseRun, type RoundRecord, type RunRecord } from '@rtbench/core/schema';
import type { BenchView } from '@rtbench/report';
import { parseProcStat } from '../test/helpers/cpu-budget.ts';

export const repoRoot = join(import.meta.dirname, '..');

/** The processes above this one, nearest first: each one's arguments (Linux's /proc; none elsewhere). */
function ancestorsArgv(): string[][] {
  const out: string[][] = [];
  let pid = process.ppid;
  while (pid > 1) {
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
      pid = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8')).ppid;
    } catch {
      break;
    }
  }
  return out;
}

/**
 * A command that waits for the lock file (flock) and holds it for this
 * command alone; the command as it is when a process above this script
 * already holds that lock (the script started as `flock <lock> npx tsx …`),
 * which would otherwise wait for itself for ever.
 */
export function underLock(lock: string, command: readonly string[]): string[] {
  const held = ancestorsArgv().some((argv) => argv[0]?.split('/').at(-1) === 'flock' && argv.includes(lock));
  return held ? [...command] : ['flock', lock, ...command];
}

/** Where this script's runs are saved: one folder a script's start, named by the script, made at its first run. */
let figuresDir: string | undefined;
let runsSaved = 0;

/** The next saved run's path: `<tmp>/rtbench-figures-<script>-XXXXXX/run-001.json`, `run-002.json`, … */
function nextRunPath(): string {
  const script = basename(process.argv[1] ?? 'script').replace(/\.[cm]?[jt]s$/, '');
  figuresDir ??= mkdtempSync(join(tmpdir(), `rtbench-figures-${script}-`));
  return join(figuresDir, `run-${String(++runsSaved).padStart(3, '0')}.json`);
}

/** `pnpm bench <args>` in a child process; returns the saved run and wall time. */
export function benchRun(args: string[], lock?: string): { run: RunRecord; wallMs: number; status: number | null; path: string } {
  const out = nextRunPath();
  const started = performance.now();
  const command = [process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'bench', ...args, '--quiet', '--save', out];
  // With a lock file, the run waits for it (flock) and holds it for this run alone, so others measure between runs.
  const [file, ...argv] = lock ? underLock(lock, command) : command;
  const r = spawnSync(file!, argv, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const wallMs = performance.now() - started;
  return { run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out), wallMs, status: r.status, path: out };
}

/** One cell of a table's "vs" column. */
export interface RatioCell {
  ratio: number;
  ci: [number, number];
  verdict: string;
}

/** A table's paired ratios against its baseline, by "case · variant". */
export function tableRatios(view: BenchView): Map<string, RatioCell> {
  const out = new Map<string, RatioCell>();
  for (const c of view.cases) {
    for (const row of c.rows) if (row.relative) out.set(`${c.caseId} · ${row.variantId}`, { ratio: row.relative.ratio, ci: row.relative.ci, verdict: row.relative.verdict });
  }
  return out;
}

/** A round's timed batches together, in ms. */
export const sampledMs = (r: RoundRecord): number => (r.samples.reduce((a, b) => a + b, 0) * r.iterationsPerSample) / 1e6;

/** A round's sampling span, in ms: its first sample's start to its last one's end (its batches together when it kept no starts). */
export function samplingSpanMs(r: RoundRecord): number {
  const starts = r.sampleStartMs ?? [];
  return starts.length ? starts[starts.length - 1]! - starts[0]! + (r.samples[r.samples.length - 1]! * r.iterationsPerSample) / 1e6 : sampledMs(r);
}

/** A saved run, read and checked. */
export const readRun = (path: string): RunRecord => parseRun(JSON.parse(readFileSync(path, 'utf8')), path);

/** The load averages now (1, 5, 15 minutes), printed beside every figure. */
export const loadText = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');

/**
 * How fast this machine is this hour, printed beside a figure so figures of
 * different hours can be read side by side: the host's speed swings by the
 * hour (the same command ran 2.4× apart on one day, load alike). The median
 * of five starts of `node -e 0`, and of five fresh processes each filling
 * 64 MB of memory it never touched (the guest's page faults, what a fresh
 * process pays most for).
 */
export function machineSpeedText(): string {
  const median = (xs: number[]): number => xs.sort((a, b) => a - b)[xs.length >> 1]!;
  /** `node -e <code>`: its stdout, and how long the process took from spawn to exit, in ms. */
  const node = (code: string): { stdout: string; ms: number } => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`node -e ${code} exited ${r.status}: ${r.stderr}`);
    return { stdout: r.stdout, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  const fill = 'const t = performance.now(); new Uint8Array(64 << 20).fill(1); console.log(performance.now() - t)';
  const starts = median(Array.from({ length: 5 }, () => node('0').ms));
  const fills = median(Array.from({ length: 5 }, () => Number(node(fill).stdout)));
  return `\`node -e 0\` ${starts.toFixed(0)} ms, 64 MB of fresh memory filled in ${fills.toFixed(0)} ms (medians of 5); load ${loadText()}`;
}

/** Whether a comparison's word is a verdict (not "same" or "inconclusive"). */
export const isDecided = (verdict: string | undefined): boolean => verdict === 'faster' || verdict === 'slower' || verdict === 'small';

/**
 * A calibration script's command line: `<command> [args…] [--name value…] [-- bench args]`.
 * `flag` reads a numeric option; `files` are the arguments that are neither
 * an option nor its value; `benchArgs` follow `--`.
 */
export function calibrationArgs(argv: readonly string[] = process.argv.slice(2)): {
  command: string | undefined;
  rest: readonly string[];
  flag: (name: string, fallback: number) => number;
  files: string[];
  benchArgs: string[];
} {
  const [command, ...rest] = argv;
  const dashes = rest.indexOf('--');
  return {
    command,
    rest,
    flag: (name, fallback) => {
      const i = rest.indexOf(name);
      return i === -1 ? fallback : Number(rest[i + 1]);
    },
    files: rest.filter((a, i) => !a.startsWith('--') && !rest[i - 1]?.startsWith('--')),
    benchArgs: dashes === -1 ? [] : rest.slice(dashes + 1),
  };
}

export function pct(x: number, digits = 2): string {
  return `${(x * 100).toFixed(digits)}%`;
}

/** The Monte-Carlo standard error of a rate of k in n. */
export const mcError = (k: number, n: number): number => Math.sqrt((k / n) * (1 - k / n) / n);

/** Failures the host's clock raised (packages/measurers corroborate.ts): on an honest suite every one is a false alarm. */
export function clockAlarms(run: RunRecord): number {
  return run.results.reduce((n, r) => n + r.failures.filter((f) => /host's|the process's clock|claimed more time/.test(f.message)).length, 0);
}

/** Starts scripts/antagonist.mjs (a half-busy, memory-heavy neighbour); call the returned function to stop it. */
export function startAntagonist(): () => void {
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'antagonist.mjs')], { stdio: 'ignore' });
  return () => {
    if (child.pid) process.kill(child.pid);
  };
}
