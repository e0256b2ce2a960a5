/**
 * Instruction counts under valgrind's cachegrind: how to run a runtime under
 * it, and what its summary says. valgrind comes from Debian's packages
 * (`apt-get install valgrind`); RTBENCH_VALGRIND names another binary.
 */
import { accessSync, constants } from 'node:fs';
import { whichOnPath } from './binary.ts';

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

/**
 * valgrind's own options: cachegrind, its summary in `logFile` (not mixed
 * into the runtime's stderr), self-modifying-code checks that JIT-compiled
 * code needs, and the cache simulation only when asked (it costs time and
 * adds the miss counts).
 */
export function cachegrindWrap(valgrind: string, logFile: string, cacheSim: boolean): { command: string; args: string[] } {
  return {
    command: valgrind,
    args: ['--tool=cachegrind', `--cache-sim=${cacheSim ? 'yes' : 'no'}`, '--smc-check=all-non-file', '--cachegrind-out-file=/dev/null', `--log-file=${logFile}`],
  };
}

export interface CachegrindSummary {
  /** Instructions executed (I refs). */
  instructions: number;
  /** With the cache simulation: first-level misses (instruction + data) and last-level misses. */
  l1Misses?: number;
  llMisses?: number;
}

const count = (text: string, label: RegExp): number | undefined => {
  const m = label.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
};

/** The totals of a cachegrind log; undefined when it holds no summary (the run did not finish). */
export function parseCachegrind(text: string): CachegrindSummary | undefined {
  const instructions = count(text, /^==\d+== I\s+refs:\s+([\d,]+)/m);
  if (instructions === undefined) return undefined;
  const i1 = count(text, /^==\d+== I1\s+misses:\s+([\d,]+)/m);
  const d1 = count(text, /^==\d+== D1\s+misses:\s+([\d,]+)/m);
  const ll = count(text, /^==\d+== LL misses:\s+([\d,]+)/m);
  return { instructions, ...(i1 !== undefined && d1 !== undefined ? { l1Misses: i1 + d1 } : {}), ...(ll !== undefined ? { llMisses: ll } : {}) };
}

/**
 * Estimated cycles from instructions and misses, the model KCachegrind calls
 * "cycle estimation": every instruction one cycle, a first-level miss that
 * hits the last level 10 more, a last-level miss 100 more. It ranks code by
 * cost better than instructions alone for memory-heavy work; it is a model,
 * never a time.
 */
export function estimatedCycles(s: CachegrindSummary): number | undefined {
  if (s.l1Misses === undefined || s.llMisses === undefined) return undefined;
  return s.instructions + 10 * s.l1Misses + 100 * s.llMisses;
}
