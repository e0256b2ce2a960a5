import { defineConfig } from 'vitest/config';
import { NO_PROCESSES_SETUP, PURE_EXCLUDE, PURE_TESTS } from './vitest.fast.config.ts';
import { SlowestFirst } from './test/helpers/sequencer.ts';
import { CpuBudgetReporter } from './test/helpers/cpu-reporter.ts';

const ALL_TESTS = ['packages/*/test/**/*.test.ts', 'runners/*/test/**/*.test.ts', 'bench/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Files run after the rest, two at a time:
 * - host-timed: no process left that mentions the program cache or the load
 *   worker (suites.test.ts and fifth-runtime.test.ts run start-up and load
 *   cases too), and it edits cached start-up programs;
 * - native-runtimes: no new /tmp/perf-<pid>.map (the native flame test makes some);
 * - instructions: five processes under valgrind (two runs side by side), the most
 *   CPU of any file: beside the two above, which mostly wait (on start-ups,
 *   load runs and perf), it fills the cores they leave idle; its runs that
 *   stop short (instructions-stops: two more under valgrind) are a file of
 *   their own, taken by whichever worker is free first.
 * They do not disturb each other. Every other file's checks are its own:
 * processes below its own CLI or with its own markers, its own temporary files
 * and suite names (interrupt.test.ts benches copies of the sleeps fixture and
 * bundle-cache.test.ts copies of the tiny one, under names of their own).
 */
const APART_TESTS = ['packages/cli/test/host-timed.test.ts', 'packages/profile/test/native-runtimes.test.ts', 'test/instructions.test.ts', 'test/instructions-stops.test.ts'];

const CPU_RECORD_SETUP = 'test/helpers/cpu-record.ts';

const ESBUILD_TESTS = PURE_EXCLUDE.map((p) => (p.endsWith('/**') ? `${p}/*.test.ts` : p));

// Tests start real runtime processes; on a shared 2-core machine a few seconds per
// test is normal, so the timeouts are generous. No test asserts on wall time.
//
// Two groups, in turn (vitest runs projects of one sequence.groupOrder together,
// and a group's projects share its worker count):
// 1. two files at a time: the pure tests (test:fast's list, without a fresh
//    module graph per file, as in vitest.fast.config.ts), the few that only
//    run esbuild, and the files that start runtimes. Files that can overlap their
//    own runs also do so inside the file (describe.concurrent with runCliAsync).
// 2. APART_TESTS, with none of the first group running.
export default defineConfig({
  test: {
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Every test's scratch files in one folder, removed after the run (test/helpers/temp-root.ts);
    // then the system programs tests need (chromium, wrk, valgrind, perf, qemu), installed once if missing,
    // beside the first tests, which need none (test/helpers/install-programs.ts); then what many files
    // share, made once (test/helpers/fixture-pool.ts).
    globalSetup: ['test/helpers/temp-root.ts', 'test/helpers/install-programs.ts', 'test/helpers/fixture-pool.ts'],
    // Each file's CPU (its worker's and every process below it) recorded, and checked against
    // test/helpers/cpu-budget.json at the end (test/helpers/cpu-budget.ts).
    setupFiles: [CPU_RECORD_SETUP],
    reporters: ['default', new CpuBudgetReporter()],
    // picocolors turns colours on when CI is set; tests read plain text.
    env: { NO_COLOR: '1' },
    sequence: { sequencer: SlowestFirst },
    projects: [
      { extends: true, test: { name: 'runtimes', include: ALL_TESTS, exclude: [...PURE_TESTS, ...APART_TESTS], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'pure', include: PURE_TESTS, exclude: PURE_EXCLUDE, setupFiles: [CPU_RECORD_SETUP, NO_PROCESSES_SETUP], maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'esbuild', include: ESBUILD_TESTS, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'apart', include: APART_TESTS, maxWorkers: 2, sequence: { groupOrder: 1 } } },
    ],
  },
});
