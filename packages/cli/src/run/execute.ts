/**
 * One planned run measured from the command line: progress lines, Ctrl-C,
 * SIGTERM, SIGHUP and the end of the launcher that started rtbench turned
 * into a stop that saves what was measured, and a save after every job;
 * then the profiles, when asked for.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { counted, fitLine, formatClock } from '@rtbench/report';
import { isResolved } from '@rtbench/runtime-registry';
import { executeRun, listenForStop, stopLine, type Profiler, type RoundPlan, type RunRequest, type StopSignal } from '@rtbench/run';
import { runSaver } from '@rtbench/saved-runs';
import { columnsOf, stderrColours as pc } from '../emit/colours.ts';
import type { Plan } from '../plan.ts';
import { runEnvironment } from './environment.ts';
import { countedCases, expectedLine, expectedTime, tookLine } from './expected-time.ts';
import { progressPrinter } from './progress.ts';

/**
 * The line that opens a run: the suite, its cases (a Worker's requests, not
 * the CPU rows each makes), the variants with their
 * versions and the rounds, within `columns` (a terminal's width, as the
 * progress lines are), the suite's name bold.
 */
export function runHeading(plan: Pick<RunRequest, 'suite' | 'variants'> & Pick<Plan, 'options'>, columns: number): string[] {
  const { roundPlan } = plan.options;
  const names = plan.variants.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
  const rounds = counted(roundPlan.rounds, 'round') + (roundPlan.adaptive ? `, then more ${addedUntil(roundPlan.adaptive)}` : '');
  const name = `${plan.suite.name}:`;
  const [first = '', ...rest] = fitLine(`${name} ${countedCases(plan)} × ${names.join(', ')} × ${rounds}`, columns);
  return [first.startsWith(name) ? pc.bold(name) + first.slice(name.length) : first, ...rest];
}

/** When an adaptive plan adds rounds: "until ±2%, up to 30 or 1:00". */
function addedUntil(adaptive: NonNullable<RoundPlan['adaptive']>): string {
  const until = adaptive.rule === 'decided' ? 'until decided' : `until ±${+(adaptive.target * 100).toFixed(2)}%`;
  return `${until}, up to ${adaptive.maxRounds}${adaptive.budgetMs !== undefined ? ` or ${formatClock(adaptive.budgetMs)}` : ''}`;
}

/** Runs the plan with progress, a stop that saves (@rtbench/run stop.ts) and a save after every job; then its profiles, when asked for. */
export async function execute(
  plan: Pick<RunRequest, 'suite' | 'variants'> & Pick<Plan, 'options'>,
  path: string,
  quiet: boolean,
  profiles?: Profiler,
): Promise<{ run: RunRecord; signal?: StopSignal; unsaved?: string; took: string }> {
  const started = performance.now();
  const expected = expectedTime(plan);
  const stop = listenForStop((cause) => process.stderr.write(pc.yellow(`\n${stopLine(cause, 'stopping the current job and saving what was measured')}\n`)));
  let profiling = false;
  const saver = runSaver(path, (line) => process.stderr.write(pc.red(`\n${line}\n`)));
  const { roundPlan } = plan.options;
  const progress = progressPrinter(process.stderr, roundPlan.adaptive?.budgetMs !== undefined ? { budgetMs: roundPlan.adaptive.budgetMs } : {});
  if (!quiet) {
    const columns = columnsOf(process.stderr);
    const line = expectedLine(plan);
    process.stderr.write(`${[...runHeading(plan, columns), ...(line ? fitLine(line, columns).map((l) => pc.dim(l)) : [])].join('\n')}\n`);
  }
  try {
    const run = await executeRun(
      {
        suite: plan.suite,
        variants: plan.variants,
        options: { ...plan.options, command: process.argv.slice(2) },
        environment: runEnvironment(),
        // No profiles follow a run that could not be saved.
        ...(profiles ? { profiler: { ...profiles, start: (r: RunRecord) => saver.unsaved === undefined && (profiles.start?.(r) ?? true) } } : {}),
      },
      {
        signal: stop.signal,
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
    const received = stop.received();
    return { run, ...(received ? { signal: received } : {}), ...(unsaved ? { unsaved } : {}), took: tookLine(performance.now() - started, expected) };
  } finally {
    if (!profiling) progress.finish();
    stop.end();
  }
}

