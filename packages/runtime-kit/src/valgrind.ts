/**
 * Instruction counts under valgrind: how to run a runtime under it, how to
 * read the counter of a live process (callgrind, driven from the host through
 * vgdb), and what its summaries say. valgrind comes from Debian's packages
 * (`apt-get install valgrind`); RTBENCH_VALGRIND names another binary.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { whichOnPath } from './binary.ts';
import { killTree, spawnTracked } from './process.ts';

export const VALGRIND_INSTALL = 'install it with `sudo apt-get install -y valgrind` (Debian/Ubuntu), or name a valgrind binary with RTBENCH_VALGRIND=/path/to/valgrind';

/** The valgrind binary, or an error whose message is one line saying how to get it. */
export function findValgrind(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.RTBENCH_VALGRIND;
  if (named) {
    try {
      accessSync(named, constants.X_OK);
    } catch {
      throw new Error(`--measure instructions: RTBENCH_VALGRIND=${named} is not an executable file; ${VALGRIND_INSTALL}`);
    }
    return named;
  }
  const found = whichOnPath('valgrind');
  if (!found) throw new Error(`--measure instructions needs valgrind, which is not on PATH: ${VALGRIND_INSTALL}`);
  return found;
}

/** What a count says: instructions executed, and with the cache simulation the misses. */
export interface CountSummary {
  /** Instructions executed (Ir). */
  instructions: number;
  /** With the cache simulation: first-level misses (instruction + data) and last-level misses. */
  l1Misses?: number;
  llMisses?: number;
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
        // One dump per thread: the count is the main thread's, where the case runs; a runtime's own threads
        // (deno's and workerd's I/O, bun's) do their work on the clock, not per call.
        '--separate-threads=yes',
        `--log-file=${this.logFile}`,
      ],
    };
  }

  private readonly vgdb: string;

  /** Sends one monitor command (`instrumentation on`, `zero`, `dump`); rejects with a one-line reason. */
  command(command: string): Promise<void> {
    return new Promise((resolve, reject) => {
      // --max-invoke-ms=1: the process waits in a system call (reading its next command), where valgrind's gdbserver does
      // not poll; vgdb then wakes it through ptrace after this long (default 100 ms, paid by every command).
      const { child, exited } = spawnTracked({ command: this.vgdb, args: [`--vgdb-prefix=${this.prefix}`, '--max-invoke-ms=1', ...command.split(' ')], env: { PATH: process.env.PATH } });
      let said = '';
      child.stdout?.on('data', (b: Buffer) => (said += b.toString()));
      child.stderr?.on('data', (b: Buffer) => (said += b.toString()));
      const timer = setTimeout(() => killTree(child), this.timeoutMs);
      void exited.then((exit) => {
        clearTimeout(timer);
        if (exit.code === 0) return resolve();
        const why = exit.spawnError ? exit.spawnError.message : exit.code === null ? `no answer in ${this.timeoutMs / 1000} s (${VGDB_PTRACE})` : said.trim().split('\n').slice(-2).join(' ');
        reject(new Error(`vgdb ${command}: ${why}`));
      });
    });
  }

  /** Dumps the counter (callgrind zeroes it as it dumps) and reads the totals since the last zero or dump. */
  async dump(): Promise<CountSummary> {
    await this.command('dump');
    const prefix = `callgrind.out.${++this.dumps}-`;
    const files = readdirSync(this.dir).filter((f) => f.startsWith(prefix));
    // Thread 1 is the main thread.
    const main = files.find((f) => /-0*1$/.test(f));
    if (!main) throw new Error(`callgrind wrote no dump of the main thread after the dump command (${files.join(', ') || 'no file'})`);
    const file = join(this.dir, main);
    const summary = parseCallgrindTotals(readFileSync(file, 'utf8'));
    for (const f of files) rmSync(join(this.dir, f), { force: true });
    if (!summary) throw new Error(`callgrind's dump ${file} holds no totals`);
    return summary;
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

/** How long one vgdb command may take (it waits for the process to answer). */
const VGDB_TIMEOUT_MS = 60_000;
const VGDB_PTRACE = 'vgdb reaches a process blocked in a system call with ptrace: run as root or set kernel.yama.ptrace_scope=0';

/** The vgdb of the same valgrind installation (Debian: /usr/bin/vgdb beside /usr/bin/valgrind), else the one on PATH. */
function vgdbBeside(valgrind: string): string {
  const beside = join(dirname(valgrind), 'vgdb');
  return existsSync(beside) ? beside : (whichOnPath('vgdb') ?? 'vgdb');
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
