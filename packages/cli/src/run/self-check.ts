/**
 * bench --self-check: the same cases measured again, on each runtime alone
 * (runs of that runtime only, the table's design: each case has processes
 * of its own, so nothing but the case and its runtime is in the figure), in
 * two halves, one before the table and one after it, each as many
 * processes as the first run's spread asks (halfDesign), and in a long loop
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
import { ALONE_TOLERANCE, halfDesign, type HalfDesign } from '@rtbench/verdicts';
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

/** Rounds of a half's first run alone: half the table's, so a quiet runtime's two halves measure as many processes as one run alone would. */
const halfRounds = (rounds: number): number => Math.ceil(rounds / 2);

const processes = (n: number): string => `${n} process${n === 1 ? '' : 'es'}`;

/** What a runtime's halves take, in words: the processes a case, the spread that asked for them, and the bound where it held them. */
function designText(variantId: string, d: HalfDesign, bound: number): string {
  if (d.spread === undefined) return `${variantId}: ${processes(d.processes)} a case each half`;
  const asked = `its processes alone spread ${(d.spread * 100).toFixed(1)}% (log sd)`;
  const held = d.wanted > d.processes ? `; ±${ALONE_TOLERANCE * 100}% would want ${d.wanted}, held at ${bound} (the table's rounds)` : '';
  return `${variantId}: ${processes(d.processes)} a case each half, ${asked}${held}`;
}

/** What the self-check does once the table is measured: its second halves alone and the long loop, then the section to print. */
export interface SelfCheck {
  after(table: RunRecord): Promise<CompanySection>;
}

type Saved = { run: RunRecord; file: string };

/**
 * The self-check's first half, before the table: the table's cases alone on
 * each of its runtimes, a first run of half the table's rounds and, where
 * its processes spread more than a half of that size can hold to decide
 * ±10% (@rtbench/verdicts halfDesign), a second run for the rest, up to the
 * table's rounds a half; each run saved in the self-check's folder. Its
 * `after` measures the second halves, as many processes as the first, in
 * the mirrored order (the first runtime's halves outermost, so each
 * runtime's two halves lie around the table alike) and the long loop
 * (@rtbench/verdicts company.ts says why the halves). A run that fails is
 * said in its own lines and leaves its figures out.
 */
export async function selfCheckBefore(suiteName: string, flags: BenchFlags, plan: Plan, tablePath: string): Promise<SelfCheck> {
  const folder = selfCheckFolder(tablePath);
  mkdirSync(folder, { recursive: true });
  const variants = plan.variants.filter(isResolved).map((v) => v.record);
  const tableRounds = plan.options.roundPlan.rounds;
  const first = halfRounds(tableRounds);
  const bound = Math.max(first, tableRounds);
  const alone = async (variant: RunRecord['variants'][number], half: string, rounds: number): Promise<Saved> => {
    info(flags, `self-check: ${variant.id} alone, ${half} the table, ${processes(rounds)} a case`);
    const file = join(folder, savedName(`alone-${variant.id}-${half.replace(/ /g, '-')}`));
    const planned = await makePlan(suiteName, checkFlags(flags, plan, { runtime: [variantText(variant)], rounds }));
    return { run: (await execute(planned, file, flags.quiet === true)).run, file };
  };
  const before = new Map<string, { runs: Saved[]; design: HalfDesign }>();
  for (const variant of variants) {
    const opening = await alone(variant, 'before', first);
    const design = halfDesign(opening.run, variant.id, bound);
    info(flags, `self-check: ${designText(variant.id, design, bound)}`);
    const runs = [opening];
    if (design.processes > design.taken) runs.push(await alone(variant, 'more before', design.processes - design.taken));
    before.set(variant.id, { runs, design });
  }
  return {
    async after(table) {
      const measured = variants.filter((v) => table.variants.some((t) => t.id === v.id && !t.unavailable));
      const after: Saved[] = [];
      for (const variant of [...measured].reverse()) after.push(await alone(variant, 'after', before.get(variant.id)!.design.processes));
      info(flags, 'self-check: a long loop of each case');
      const loopFile = join(folder, savedName('loop'));
      const loopPlan = await makePlan(suiteName, checkFlags(flags, plan, {
        runtime: measured.map(variantText),
        schedule: loopSchedule(),
        rounds: LOOP_ROUNDS,
        measurerOptions: {},
      }));
      const loop = { run: (await execute(loopPlan, loopFile, flags.quiet === true)).run, file: loopFile };
      const halves = [...[...before.values()].map((b) => b.runs), ...after.map((a) => [a])];
      const designs = [...before].map(([id, b]) => designText(id, b.design, bound));
      return companySection(table, halves, loop, designs);
    },
  };
}
