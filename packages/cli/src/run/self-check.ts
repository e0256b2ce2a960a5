/**
 * bench --self-check: the same cases measured again, on each runtime alone
 * (runs of that runtime only, the table's design: each case has processes
 * of its own, so nothing but the case and its runtime is in the figure), in
 * two halves, one before the table and one after it, and in a long loop
 * (the schedule whose fresh processes call a case back to back) after it,
 * each run saved beside the table's; then every cell beside both
 * (@rtbench/verdicts company.ts).
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { MEASURERS } from '@rtbench/measurers';
import { companySection, type CompanySection } from '@rtbench/report';
import { isResolved } from '@rtbench/runtime-registry';
import { makePlan, type Plan } from '../plan.ts';
import { info } from '../emit/info.ts';
import { execute } from './execute.ts';
import { savedName } from './several-suites.ts';
import type { BenchFlags } from './bench-flags.ts';

/** Rounds of the long loop per case and runtime: fresh processes, each its own loop. */
const LOOP_ROUNDS = 3;

/** The schedule whose processes call a case back to back, one process each. */
function loopSchedule(): string {
  const found = MEASURERS.chosenBy('schedule').find((m) => m.callsBackToBack);
  if (!found) throw new Error('no schedule calls a case back to back');
  return found.name;
}

/** A variant as --runtime takes it back: its spec and its flags. */
const variantText = (v: RunRecord['variants'][number]): string => [v.spec, ...v.flags].join(' ');

/** Where the self-check's runs go: a folder beside the table's run, named after it. */
function selfCheckFolder(tablePath: string): string {
  return join(dirname(tablePath), `${basename(tablePath, '.json')}.self-check`);
}

/** Flags for a run the self-check plans: the table's, less what belongs to the table alone (its file, page, profiles). */
function checkFlags(flags: BenchFlags, plan: Plan, changes: Partial<BenchFlags>): BenchFlags {
  const { save: _save, html: _html, profile: _profile, selfCheck: _selfCheck, maxTime: _maxTime, target: _target, stop: _stop, ...rest } = flags;
  return { ...rest, rounds: plan.options.roundPlan.rounds, ...changes };
}

/** Rounds of each half alone: half the table's, so the two halves measure as many processes as one run alone would. */
const halfRounds = (rounds: number): number => Math.ceil(rounds / 2);

/** What the self-check does once the table is measured: its second halves alone and the long loop, then the section to print. */
export interface SelfCheck {
  after(table: RunRecord): Promise<CompanySection>;
}

/**
 * The self-check's first half, before the table: the table's cases alone on
 * each of its runtimes, each run saved in the self-check's folder. Its
 * `after` measures the second halves in the mirrored order (the first
 * runtime's halves outermost, so each runtime's two halves lie around the
 * table alike) and the long loop (@rtbench/verdicts company.ts says why the
 * halves). A run that fails is said in its own lines and leaves its figures
 * out.
 */
export async function selfCheckBefore(suiteName: string, flags: BenchFlags, plan: Plan, tablePath: string): Promise<SelfCheck> {
  const folder = selfCheckFolder(tablePath);
  mkdirSync(folder, { recursive: true });
  const variants = plan.variants.filter(isResolved).map((v) => v.record);
  const alone = async (variant: RunRecord['variants'][number], half: 'before' | 'after'): Promise<{ run: RunRecord; file: string }> => {
    info(flags, `self-check: ${variant.id} alone, ${half} the table`);
    const file = join(folder, savedName(`alone-${variant.id}-${half}`));
    const planned = await makePlan(suiteName, checkFlags(flags, plan, { runtime: [variantText(variant)], rounds: halfRounds(plan.options.roundPlan.rounds) }));
    return { run: (await execute(planned, file, flags.quiet === true)).run, file };
  };
  const before: { run: RunRecord; file: string }[] = [];
  for (const variant of variants) before.push(await alone(variant, 'before'));
  return {
    async after(table) {
      const measured = variants.filter((v) => table.variants.some((t) => t.id === v.id && !t.unavailable));
      const after: { run: RunRecord; file: string }[] = [];
      for (const variant of [...measured].reverse()) after.push(await alone(variant, 'after'));
      info(flags, 'self-check: a long loop of each case');
      const loopFile = join(folder, savedName('loop'));
      const loopPlan = await makePlan(suiteName, checkFlags(flags, plan, {
        runtime: measured.map(variantText),
        schedule: loopSchedule(),
        rounds: LOOP_ROUNDS,
        measurerOptions: {},
      }));
      const loop = { run: (await execute(loopPlan, loopFile, flags.quiet === true)).run, file: loopFile };
      return companySection(table, [...before, ...after], loop);
    },
  };
}
