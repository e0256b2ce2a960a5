/**
 * Instruction counts under valgrind: how to run a runtime under it, how to
 * read the counter of a live process (callgrind, driven from the host through
 * vgdb), and what its summaries say. valgrind comes from Debian's packages
 * (`apt-get install valgrind`); RTBENCH_VALGRIND names another binary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { killTree, spawnTracked, whichOnPath } from '@rtbench/process';
import { toolBinary } from './host-tools.ts';

const VALGRIND_INSTALL = 'install it with `sudo apt-get install -y valgrind` (Debian/Ubuntu), or name a valgrind binary with RTBENCH_VALGRIND=/path/to/valgrind';

/** The valgrind binary, or an error whose message is one line saying how to get it. */
export function findValgrind(env: NodeJS.ProcessEnv = process.env): string {
  const found = toolBinary({ name: 'valgrind', variable: 'RTBENCH_VALGRIND', asker: '--measure instructions', install: VALGRIND_INSTALL }, env);
  // A named binary that is not valgrind would run the runtime unmeasured, and each case would fail without a reason.
  const banner = found.named ? versionBanner(found.path) : undefined;
  if (banner !== undefined && !/^valgrind-\d/.test(banner)) {
    throw new Error(`--measure instructions: RTBENCH_VALGRIND=${found.path} is not valgrind (\`--version\` printed ${banner ? JSON.stringify(banner.slice(0, 80)) : 'nothing'}, valgrind prints "valgrind-3.…"); ${VALGRIND_INSTALL}`);
  }
  return found.path;
}

/** The first line `binary --version` prints (stdout or stderr), or "" (bounded: a binary that hangs says nothing). */
function versionBanner(binary: string): string {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]!.trim();
}

/** What a count says: instructions executed, and with the cache simulation the misses. */
export interface CountSummary {
  /** Instructions executed (Ir), summed over the process's threads. */
  instructions: number;
  /** Of those, what threads other than the main one executed (with --separate-threads=yes; absent without). */
  otherThreads?: number;
  /** With the cache simulation: first-level misses (instruction + data) and last-level misses. */
  l1Misses?: number;
  llMisses?: number;
  /**
   * Instructions each function executed itself (callgrind's exclusive Ir), by
   * the name callgrind gives it (an address in a stripped binary); summed over
   * threads like the totals.
   */
  functions?: ReadonlyMap<string, number>;
}

/**
 * Estimated cycles from instructions and misses, the model KCachegrind calls
 * "cycle estimation": every instruction one cycle, a first-level miss that
 * hits the last level 10 more, a last-level miss 100 more. It ranks code by
 * cost better than instructions alone for memory-heavy work; it is a model,
 * never a time.
 */
export function estimatedCycles(s: CountSummary): number | undefined {
  if (s.l1Misses === undefined || s.llMisses === undefined) return undefined;
  return s.instructions + 10 * s.l1Misses + 100 * s.llMisses;
}

/**
 * A runtime under callgrind whose counter the host reads at the points it
 * chooses: the process starts with instrumentation off (start-up, loading the
 * suite and the warmup run at valgrind's uninstrumented speed, ~2.5× faster
 * than counted), and the host turns it on, zeroes and dumps the counter with
 * monitor commands sent by vgdb while the process waits for its next command.
 * vgdb reaches a process blocked in a system call through ptrace: it needs
 * ptrace of a non-child (root, or kernel.yama.ptrace_scope = 0).
 */
export class CallgrindControl {
  /** valgrind's own arguments (JobRequest.wrap). */
  readonly wrap: { command: string; args: string[] };
  private readonly prefix: string;
  private readonly outFile: string;
  private readonly logFile: string;
  private dumps = 0;

  /** `dir`: an empty directory of this process alone (its vgdb pipes, dumps and log). */
  constructor(
    valgrind: string,
    readonly dir: string,
    cacheSim: boolean,
    private readonly timeoutMs = VGDB_TIMEOUT_MS,
    /** The run's stop (Ctrl-C, SIGTERM): a command in flight is ended at once, not waited on for its timeout. */
    private readonly signal?: AbortSignal,
  ) {
    this.prefix = join(dir, 'vgdb');
    this.outFile = join(dir, 'callgrind.out');
    this.logFile = join(dir, 'valgrind.log');
    this.vgdb = vgdbBeside(valgrind);
    this.wrap = {
      command: valgrind,
      args: [
        '--tool=callgrind',
        '--instr-atstart=no',
        `--cache-sim=${cacheSim ? 'yes' : 'no'}`,
        '--smc-check=all-non-file',
        '--vgdb=yes',
        `--vgdb-prefix=${this.prefix}`,
        `--callgrind-out-file=${this.outFile}`,
        '--dump-line=no',
        // Every dump names its functions in full (compressed names are defined once per process, in whichever dump
        // first met them), so each dump can be read on its own (parseCallgrindFunctions).
        '--compress-strings=no',
        // One dump file per thread, summed by dump(): the case runs on the main thread, but part of its work may
        // not (V8 posts every scavenge as a job that a platform worker thread sometimes takes instead of the main
        // thread joining it, whatever --single-threaded-gc says).
        '--separate-threads=yes',
        `--log-file=${this.logFile}`,
      ],
    };
  }

  private readonly vgdb: string;

  /** Sends one monitor command (`instrumentation on`, `zero`, `dump`); rejects with a one-line reason (InterruptedCommand when the run is stopped). */
  command(command: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.signal?.aborted) return reject(new InterruptedCommand(command));
      // --max-invoke-ms=1: the process waits in a system call (reading its next command), where valgrind's gdbserver does
      // not poll; vgdb then wakes it through ptrace after this long (default 100 ms, paid by every command).
      const { child, exited } = spawnTracked({ command: this.vgdb, args: [`--vgdb-prefix=${this.prefix}`, '--max-invoke-ms=1', ...command.split(' ')], env: { PATH: process.env.PATH } });
      let said = '';
      child.stdout?.on('data', (b: Buffer) => (said += b.toString()));
      child.stderr?.on('data', (b: Buffer) => (said += b.toString()));
      const timer = setTimeout(() => killTree(child), this.timeoutMs);
      const onAbort = (): void => killTree(child);
      this.signal?.addEventListener('abort', onAbort, { once: true });
      void exited.then((exit) => {
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        if (this.signal?.aborted) return reject(new InterruptedCommand(command));
        if (exit.code === 0) return resolve();
        const why = exit.spawnError ? exit.spawnError.message : exit.code === null ? `no answer in ${this.timeoutMs / 1000} s (${VGDB_PTRACE})` : said.trim().split('\n').slice(-2).join(' ');
        reject(new Error(`vgdb ${command}: ${why}`));
      });
    });
  }

  /**
   * Dumps the counter (callgrind zeroes it as it dumps) and reads the totals
   * since the last zero or dump, summed over the process's threads. Not the
   * main thread's alone: a call's scavenges run on a V8 platform worker in
   * some samples and not others, so the main thread's count takes several
   * levels while the sum holds one (docs/measurements/instructions.md).
   * `byFunction`: also each function's own instructions (CountSummary.functions).
   */
  async dump(byFunction = false): Promise<CountSummary> {
    await this.command('dump');
    return takeDump(this.dir, ++this.dumps, byFunction);
  }

  /** The last lines of valgrind's log, for an error message. */
  logTail(lines = 3): string {
    try {
      return readFileSync(this.logFile, 'utf8').trim().split('\n').slice(-lines).join(' ');
    } catch {
      return '';
    }
  }
}

/** A vgdb command ended because the run was stopped: not a failure of valgrind or of ptrace. */
export class InterruptedCommand extends Error {
  constructor(command: string) {
    super(`vgdb ${command}: interrupted`);
  }
}

/** How long one vgdb command may take (it waits for the process to answer). */
const VGDB_TIMEOUT_MS = 60_000;
const VGDB_PTRACE = 'vgdb reaches a process blocked in a system call with ptrace: run as root or set kernel.yama.ptrace_scope=0';

/** The vgdb of the same valgrind installation (Debian: /usr/bin/vgdb beside /usr/bin/valgrind), else the one on PATH. */
function vgdbBeside(valgrind: string): string {
  const beside = join(dirname(valgrind), 'vgdb');
  return existsSync(beside) ? beside : (whichOnPath('vgdb') ?? 'vgdb');
}

/**
 * Reads the files callgrind wrote for its dump number `n` in `dir` (with
 * --separate-threads=yes one per thread, `callgrind.out.<n>-<thread>`;
 * without, `callgrind.out.<n>`), removes them, and returns their totals
 * summed, with `byFunction` each function's own instructions too; throws a
 * one-line reason when there are none or one holds no totals.
 */
export function takeDump(dir: string, n: number, byFunction = false): CountSummary {
  const name = `callgrind.out.${n}`;
  const files = readdirSync(dir).filter((f) => f === name || f.startsWith(`${name}-`));
  try {
    if (files.length === 0) throw new Error(`callgrind wrote no dump ${n} in ${dir}`);
    let otherThreads = 0;
    const sum = sumCounts(
      files.map((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        const summary = parseCallgrindTotals(text);
        if (!summary) throw new Error(`callgrind's dump ${join(dir, f)} holds no totals`);
        // Thread 1 (`-01`) is the main thread, where the case runs.
        if (f.startsWith(`${name}-`) && Number(f.slice(name.length + 1)) !== 1) otherThreads += summary.instructions;
        return byFunction ? { ...summary, functions: parseCallgrindFunctions(text) } : summary;
      }),
    );
    return files.some((f) => f.startsWith(`${name}-`)) ? { ...sum, otherThreads } : sum;
  } finally {
    for (const f of files) rmSync(join(dir, f), { force: true });
  }
}

/** Counts added field by field (the threads of one dump); a miss count only when every summary has it. */
function sumCounts(summaries: readonly CountSummary[]): CountSummary {
  const total = (pick: (s: CountSummary) => number | undefined): number | undefined =>
    summaries.every((s) => pick(s) !== undefined) ? summaries.reduce((a, s) => a + pick(s)!, 0) : undefined;
  const l1 = total((s) => s.l1Misses);
  const ll = total((s) => s.llMisses);
  const functions = new Map<string, number>();
  for (const s of summaries) for (const [name, ir] of s.functions ?? []) functions.set(name, (functions.get(name) ?? 0) + ir);
  return {
    instructions: total((s) => s.instructions) ?? 0,
    ...(l1 !== undefined ? { l1Misses: l1 } : {}),
    ...(ll !== undefined ? { llMisses: ll } : {}),
    ...(summaries.some((s) => s.functions) ? { functions } : {}),
  };
}

/**
 * Each function's own instructions (exclusive Ir) in a callgrind dump. The
 * format (valgrind's callgrind format, version 1): `fn=` names the function
 * the following cost lines belong to, written once as `fn=(id) name` and then
 * as `fn=(id)` (a `cfn=` line, naming a callee, may define it first); a cost
 * line is its positions then its events' costs; the cost line after a
 * `calls=` line is what that call cost inclusively, and belongs to the
 * callee, not to the function's own count.
 */
export function parseCallgrindFunctions(text: string): Map<string, number> {
  const positions = /^positions:\s*(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/).length ?? 1;
  const events = /^events:\s*(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/) ?? ['Ir'];
  const column = positions + Math.max(0, events.indexOf('Ir'));
  const names = new Map<string, string>();
  const own = new Map<string, number>();
  let current: string | undefined;
  let callCost = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('fn=')) {
      const m = /^fn=(?:\((\d+)\))?\s*(.*)$/.exec(line)!;
      const [, id, name] = m;
      if (id !== undefined && name) names.set(id, name);
      current = id !== undefined ? (names.get(id) ?? `(${id})`) : name;
      continue;
    }
    if (line.startsWith('cfn=(')) {
      // A callee's name may be defined here first; fn= lines then refer to it by its id.
      const m = /^cfn=\((\d+)\)\s*(.*)$/.exec(line);
      if (m?.[2]) names.set(m[1]!, m[2]);
      continue;
    }
    if (line.startsWith('calls=')) {
      callCost = true;
      continue;
    }
    const first = line.charCodeAt(0);
    // A cost line starts with a position: a number, +n / -n (relative), or * (the same).
    const isCost = (first >= 48 && first <= 57) || first === 43 || first === 45 || first === 42;
    if (!isCost) continue;
    if (callCost) {
      callCost = false;
      continue;
    }
    if (current === undefined) continue;
    const cost = Number(line.trim().split(/\s+/)[column] ?? 0);
    if (Number.isFinite(cost) && cost > 0) own.set(current, (own.get(current) ?? 0) + cost);
  }
  return own;
}

/**
 * The totals of a callgrind dump (its `events:` line names the columns of its
 * `summary:` / `totals:` line); undefined when there are none.
 */
export function parseCallgrindTotals(text: string): CountSummary | undefined {
  const events = /^events:\s*(.+)$/m.exec(text)?.[1]?.trim().split(/\s+/);
  const totals = (/^totals:\s*(.+)$/m.exec(text) ?? /^summary:\s*(.+)$/m.exec(text))?.[1]?.trim().split(/\s+/).map(Number);
  if (!events || !totals) return undefined;
  const of = (name: string): number | undefined => {
    const i = events.indexOf(name);
    return i >= 0 ? (totals[i] ?? 0) : undefined;
  };
  const instructions = of('Ir');
  if (instructions === undefined || !Number.isFinite(instructions)) return undefined;
  const sum = (...names: string[]): number | undefined => (names.every((n) => of(n) !== undefined) ? names.reduce((a, n) => a + of(n)!, 0) : undefined);
  const l1 = sum('I1mr', 'D1mr', 'D1mw');
  const ll = sum('ILmr', 'DLmr', 'DLmw');
  return { instructions, ...(l1 !== undefined ? { l1Misses: l1 } : {}), ...(ll !== undefined ? { llMisses: ll } : {}) };
}
