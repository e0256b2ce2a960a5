/** `rtbench bench <suite>`: plan, run, save, report. */
import pc from 'picocolors';
import { renderBenchTable, renderRunNotes } from '@rtbench/report';
import type { RunRecord } from '@rtbench/core/schema';
import { UsageError } from '../errors.ts';
import { parseDuration, parsePositiveInt } from '../options.ts';
import { progressPrinter } from '../progress.ts';
import { assertWritableOutput, defaultResultsPath, writeRunAtomically } from '../results-file.ts';
import { executeRun } from '../run.ts';
import { DEFAULT_RUNTIMES } from '../runners.ts';
import { filterCases, loadSuite, locateSuite } from '../suites.ts';
import { isResolved, parseRuntimeList, resolveVariant, type VariantSpec } from '../variants.ts';

export interface BenchFlags {
  runtime?: string;
  filter?: string;
  time?: string;
  warmup?: string;
  rounds?: string | number;
  timeout?: string;
  out?: string;
  json?: boolean;
  seed?: string | number;
  quiet?: boolean;
}

// 10 rounds of 100 ms: the process is the unit of replication, and on this
// shared machine one process in ten or so runs ~2x slow for outside reasons.
// With 10 rounds the median over processes and its bootstrap CI shrug off one
// such process; with 5 they cannot (a recorded run's 5-round windows with one
// disturbed process: CI ±37–52%; 10-round windows with one: ±2.1–4.3%).
export const BENCH_DEFAULTS = { time: '1s', warmup: '100ms', rounds: 10 };

export interface BenchOutcome {
  run: RunRecord;
  path: string;
  exitCode: number;
}

/** Shared by `bench` and `compare`: everything from arguments to a saved run. */
export async function benchCommand(suiteName: string, flags: BenchFlags, variantsOverride?: VariantSpec[], mode: 'bench' | 'compare' = 'bench'): Promise<BenchOutcome> {
  const location = locateSuite(suiteName);
  const variants = variantsOverride ?? parseRuntimeList(flags.runtime ?? DEFAULT_RUNTIMES.join(','));
  const timeMs = parseDuration(flags.time ?? BENCH_DEFAULTS.time, '--time');
  const warmupMs = parseDuration(flags.warmup ?? BENCH_DEFAULTS.warmup, '--warmup');
  const rounds = parsePositiveInt(flags.rounds ?? BENCH_DEFAULTS.rounds, '--rounds');
  const perProcessMs = warmupMs + timeMs / rounds;
  // Capped where Node's timers overflow (2^31-1 ms, 24.8 days) and would fire at once.
  const timeoutMs = flags.timeout ? parseDuration(flags.timeout, '--timeout') : Math.min(2 ** 31 - 1, Math.max(60_000, 20 * perProcessMs));
  const seed = flags.seed !== undefined ? parsePositiveInt(flags.seed, '--seed') : (Date.now() % 2 ** 31) + 1;
  if (flags.timeout && timeoutMs <= perProcessMs) {
    throw new UsageError(`--timeout ${flags.timeout} is not longer than what each process is asked to run (--warmup ${warmupMs} ms + ${+(timeMs / rounds).toFixed(3)} ms of sampling): every process would be killed`);
  }
  if (flags.out !== undefined) assertWritableOutput(flags.out);

  const { cases: allCases } = await loadSuite(location);
  const cases = filterCases(allCases, flags.filter);

  const resolved = await Promise.all(variants.map(resolveVariant));
  if (!resolved.some(isResolved)) {
    throw new UsageError(resolved.map((v) => (isResolved(v) ? '' : `${v.spec.id}: ${v.reason}`)).filter(Boolean).join('\n'));
  }

  const abort = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write(pc.yellow('\ninterrupted: stopping the current job and saving what was measured (Ctrl-C again to quit now)\n'));
      abort.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  const started = new Date();
  const path = flags.out ?? defaultResultsPath({ startedAt: started.toISOString(), suite: location.name, mode });
  const progress = progressPrinter();
  if (!flags.quiet) {
    const names = resolved.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
    process.stderr.write(`${pc.bold(location.name)}: ${cases.length} case${cases.length === 1 ? '' : 's'} × ${names.join(', ')} × ${rounds} rounds\n`);
  }
  let run: RunRecord;
  try {
    run = await executeRun({ ...location, cases }, resolved, {
      timeMs,
      warmupMs,
      rounds,
      timeoutMs,
      ...(flags.filter ? { filter: flags.filter } : {}),
      seed,
      mode,
      command: process.argv.slice(2),
    }, {
      signal: abort.signal,
      save: (r) => writeRunAtomically(path, r),
      ...(flags.quiet ? {} : { onProgress: (e) => progress.update(e) }),
    });
  } finally {
    progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }

  if (mode === 'bench') {
    const out = flags.json ? process.stderr : process.stdout;
    out.write(`${renderBenchTable(run)}\n${renderRunNotes(run)}\n`);
    if (flags.json) process.stdout.write(`${JSON.stringify(run)}\n`);
  }
  process.stderr.write(pc.dim(`saved ${path}\n`));
  const exitCode = run.status === 'interrupted' ? 130 : run.status === 'failed' ? 1 : 0;
  return { run, path, exitCode };
}
