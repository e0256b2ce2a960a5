/**
 * bench --self-check: after the table, the same cases measured again, on
 * each runtime alone (a run of that runtime only, the table's design and
 * rounds: each case has processes of its own, so nothing but the case and
 * its runtime is in the figure) and in a long loop (the schedule whose fresh
 * processes call a case back to back), each run saved beside the table's;
 * then every cell beside both (@rtbench/verdicts company.ts).
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { MEASURERS } from '@rtbench/measurers';
import { companySection, type CompanySection } from '@rtbench/report';
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

/**
 * Measures the table's cases alone on each of its runtimes and in a long
 * loop, saving each run in the self-check's folder; the section to print.
 * A run that fails is said in its own lines and leaves its column blank.
 */
export async function selfCheck(suiteName: string, flags: BenchFlags, plan: Plan, table: RunRecord, tablePath: string): Promise<CompanySection> {
  const folder = selfCheckFolder(tablePath);
  mkdirSync(folder, { recursive: true });
  const variants = table.variants.filter((v) => !v.unavailable);
  const alone: { run: RunRecord; file: string }[] = [];
  for (const variant of variants) {
    info(flags, `self-check: ${variant.id} alone`);
    const file = join(folder, savedName(`alone-${variant.id}`));
    const planned = await makePlan(suiteName, checkFlags(flags, plan, { runtime: [variantText(variant)] }));
    alone.push({ run: (await execute(planned, file, flags.quiet === true)).run, file });
  }
  info(flags, 'self-check: a long loop of each case');
  const loopFile = join(folder, savedName('loop'));
  const loopPlan = await makePlan(suiteName, checkFlags(flags, plan, {
    runtime: variants.map(variantText),
    schedule: loopSchedule(),
    rounds: LOOP_ROUNDS,
    measurerOptions: {},
  }));
  const loop = { run: (await execute(loopPlan, loopFile, flags.quiet === true)).run, file: loopFile };
  return companySection(table, alone, loop);
}
