/**
 * One planned run measured from the command line: progress lines, Ctrl-C,
 * SIGTERM, SIGHUP and the end of the launcher that started rtbench turned
 * into a stop that saves what was measured, and a save after every job;
 * then the profiles, when asked for. bench runs one; claims runs one per
 * planned set of checks.
 */
import { setMaxListeners } from 'node:events';
import type { RunRecord } from '@rtbench/core/schema';
import { counted } from '@rtbench/report';
import { isResolved } from '@rtbench/runtime-kit';
import { executeRun, runSaver, type Profiler, type RunRequest } from '@rtbench/run';
import { stderrColours as pc } from '../emit/colours.ts';
import type { Plan } from '../plan.ts';
import { runEnvironment } from './environment.ts';
import { watchLaunchers } from './launchers.ts';
import { progressPrinter } from './progress.ts';

/** Exit codes after a signal, by the convention 128 + its number. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
export const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const SIGNAL_SAID: Readonly<Record<StopSignal, string>> = { SIGHUP: 'hung up (SIGHUP)', SIGINT: 'interrupted', SIGTERM: 'terminated (SIGTERM)' };

/** Runs the plan with progress, Ctrl-C handling and a save after every job; then its profiles, when asked for. `settled`: when a case needs no more adaptive rounds (claims). */
export async function execute(plan: Pick<RunRequest, 'suite' | 'variants'> & Pick<Plan, 'options'>, path: string, quiet: boolean, profiles?: Profiler, settled?: RunRequest['settled']): Promise<{ run: RunRecord; signal?: StopSignal; unsaved?: string }> {
  const abort = new AbortController();
  // Every live process listens for the stop; warm processes of their own per case (lockstep-per-case with
  // --sets-per-process) can be dozens at once, past Node's default of 10 listeners before it warns.
  setMaxListeners(0, abort.signal);
  let interrupts = 0;
  let received: StopSignal | undefined;
  const onSignal = (signal: StopSignal): void => {
    interrupts++;
    received ??= signal;
    if (interrupts === 1) {
      process.stderr.write(pc.yellow(`\n${SIGNAL_SAID[signal]}: stopping the current job and saving what was measured${signal === 'SIGINT' ? ' (Ctrl-C again to quit now)' : ''}\n`));
      abort.abort();
    } else process.exit(SIGNAL_EXIT[signal]);
  };
  const onSigint = (): void => onSignal('SIGINT');
  const onSigterm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  // A closed terminal: save and stop, as for SIGTERM.
  const onSighup = (): void => onSignal('SIGHUP');
  process.on('SIGHUP', onSighup);
  // SIGTERM to pnpm or npx alone does not reach this process: their ending is taken as the same request.
  const unwatch = watchLaunchers((ended) => {
    if (received) return;
    process.stderr.write(pc.yellow(`\n${ended.name} (pid ${ended.pid}), which started rtbench, has ended: stopping the current job and saving what was measured\n`));
    received = 'SIGTERM';
    interrupts++;
    abort.abort();
  });
  let profiling = false;
  const saver = runSaver(path, (line) => process.stderr.write(pc.red(`\n${line}\n`)));
  const { roundPlan } = plan.options;
  const progress = progressPrinter(process.stderr, roundPlan.adaptive?.budgetMs !== undefined ? { budgetMs: roundPlan.adaptive.budgetMs } : {});
  if (!quiet) {
    const names = plan.variants.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
    const rounds = roundPlan.adaptive ? `${roundPlan.rounds}–${roundPlan.adaptive.maxRounds} rounds (until ±${+(roundPlan.adaptive.target * 100).toFixed(2)}%)` : `${roundPlan.rounds} rounds`;
    const n = plan.suite.cases.length;
    process.stderr.write(`${pc.bold(plan.suite.name)}: ${counted(n, 'case')} × ${names.join(', ')} × ${rounds}\n`);
  }
  try {
    const run = await executeRun(
      {
        suite: plan.suite,
        variants: plan.variants,
        options: { ...plan.options, command: process.argv.slice(2) },
        environment: runEnvironment(),
        ...(settled ? { settled } : {}),
        // No profiles follow a run that could not be saved.
        ...(profiles ? { profiler: { ...profiles, start: (r: RunRecord) => saver.unsaved === undefined && (profiles.start?.(r) ?? true) } } : {}),
      },
      {
        signal: abort.signal,
        save: (r) => saver.save(r),
        ...(quiet ? {} : { onProgress: (e) => progress.update(e) }),
        onProfile: (e) => {
          if (!profiling) progress.finish();
          profiling = true;
          if (!quiet) process.stderr.write(pc.dim(`${e.pass} ${e.variantId} · ${e.caseId}\n`));
        },
      },
    );
    const unsaved = saver.unsaved;
    return { run, ...(received ? { signal: received } : {}), ...(unsaved ? { unsaved } : {}) };
  } finally {
    if (!profiling) progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    process.off('SIGHUP', onSighup);
    unwatch();
  }
}

