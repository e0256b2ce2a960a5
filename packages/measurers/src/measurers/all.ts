/**
 * Every measurer, by descriptor: the names the CLI accepts (--schedule,
 * --measure), the measurer a suite's own kind of case chooses, their own
 * options, help, errors and defaults, and the kinds a saved run may name,
 * come from this one list. A new measurer is one file in this folder and one
 * entry here. A registry is a value (MeasurerRegistry), so a test adds a
 * measurer to one of its own without touching this list.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import type { MeasurerKind, RunRecord, VerdictParameters } from '@rtbench/core/schema';
import { RecordRegistry } from '@rtbench/measurer-records';
import type { Isolation } from '@rtbench/suite-loader';
import { MeasurerRefused, type MeasurerDescriptor, type MeasurerOption, type MeasurerOptionValue, type PrepareContext, type PreparedMeasurer } from '../measurer.ts';
import { DUET } from './duet.ts';
import { HOST_TIMED } from './host-timed.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { LOCKSTEP, LOCKSTEP_PER_CASE } from './lockstep.ts';
import { PROCESSES } from './processes.ts';
import { REQUEST_CPU } from './request-cpu.ts';

/** The timing measurers' warmup bound, for a plan's time-out check. */
export { longestWarmupMs } from './steady-rule.ts';

/** How a measurer is named on the command line: "--schedule lockstep", "--measure instructions", or by its suite's kind of case. */
function choiceOf(m: MeasurerDescriptor): string {
  return m.chosenBy === 'suite' ? `a suite ${m.suiteKind ?? `measured by ${m.name}`}` : `--${m.chosenBy} ${m.name}`;
}

export class MeasurerRegistry {
  /** The default of each way of choosing comes first (lockstep for --schedule). */
  constructor(private readonly measurers: readonly MeasurerDescriptor[]) {
    this.records = new RecordRegistry(measurers.map((m) => m.record));
  }

  /** Every measurer, in the list's order. */
  every(): readonly MeasurerDescriptor[] {
    return this.measurers;
  }

  /** The measurers chosen by `how` (--schedule or --measure), the default first. */
  chosenBy(how: MeasurerDescriptor['chosenBy']): MeasurerDescriptor[] {
    return this.measurers.filter((m) => m.chosenBy === how);
  }

  /** The measurer a suite's cases choose by their kind (host-timed cases), or undefined: the options choose. */
  ofSuite(cases: readonly CaseListing[]): MeasurerDescriptor | undefined {
    return this.chosenBy('suite').find((m) => m.owns?.(cases));
  }

  /** The first measurer chosen by --schedule that gives a case this isolation (a brought format's need). */
  withIsolation(isolation: Isolation): MeasurerDescriptor | undefined {
    return this.chosenBy('schedule').find((m) => m.isolation === isolation);
  }

  /** Every measurer's own options, once each by name (two lockstep schedules share one), for the commands that run measurers. */
  options(): MeasurerOption[] {
    const byName = new Map<string, MeasurerOption>();
    for (const m of this.measurers) for (const o of m.options ?? []) if (!byName.has(o.name)) byName.set(o.name, o);
    return [...byName.values()];
  }

  /** The values given to the measurers' options, read by option name (absent ones left out); a value is a string or a flag's true. */
  optionValues(lookup: (name: string) => unknown): Record<string, MeasurerOptionValue> {
    const given: Record<string, MeasurerOptionValue> = {};
    for (const { name } of this.options()) {
      const value = lookup(name);
      if (typeof value === 'string' || value === true) given[name] = value;
    }
    return given;
  }

  /**
   * The measurer's own setup for a run: an option it does not declare is
   * refused in one line naming the measurers that take it; then its prepare()
   * finds its tools (MeasurerRefused: the one line it says).
   */
  prepare(measurer: MeasurerDescriptor, given: Readonly<Record<string, MeasurerOptionValue>>, context: Omit<PrepareContext, 'given'>): PreparedMeasurer {
    for (const name of Object.keys(given)) {
      if (measurer.options?.some((o) => o.name === name)) continue;
      const owners = this.measurers.filter((m) => m.options?.some((o) => o.name === name));
      throw new MeasurerRefused(owners.length ? `--${name} goes with ${owners.map(choiceOf).join(' or ')}` : `--${name}: no measurer takes this option`);
    }
    return measurer.prepare?.({ ...context, given }) ?? {};
  }

  /** What saved runs are read and worded by: its measurers' records, by kind. */
  readonly records: RecordRegistry;

  /** The measurer a saved run names by its kind (a run that names none is from fresh processes, before lockstep); a kind this registry lacks is refused (UnknownMeasurer). */
  recorded(kind: MeasurerKind | undefined): MeasurerDescriptor {
    const { kind: found } = this.records.recorded(kind);
    return this.measurers.find((m) => m.record.kind === found)!;
  }

  /**
   * The verdict's parameters for a view of saved runs: those they were
   * measured for (instruction counts: the largest threshold of their
   * variants' engines), or `otherwise` for runs of different measurers.
   */
  verdictOfRuns(runs: readonly Pick<RunRecord, 'options' | 'variants'>[], otherwise: VerdictParameters): VerdictParameters {
    if (runs.length === 0 || new Set(runs.map((r) => r.options.measurer)).size > 1) return otherwise;
    const saved = runs.map((r) => this.verdict(r));
    return { threshold: Math.max(...saved.map((v) => v.threshold)), confidence: saved[0]!.confidence };
  }

  /** The verdict's parameters a saved run was measured for: as it says, or, for an older run, its measurer's for its variants' engines. */
  verdict(run: Pick<RunRecord, 'options' | 'variants'>): VerdictParameters {
    if (run.options.verdict) return run.options.verdict;
    const { defaults } = this.recorded(run.options.measurer);
    return { threshold: defaults.threshold(run.variants.filter((v) => !v.unavailable).map((v) => v.engine)), confidence: defaults.confidence };
  }
}

/** rtbench's measurers. */
export const MEASURERS = new MeasurerRegistry([LOCKSTEP, LOCKSTEP_PER_CASE, PROCESSES, DUET, INSTRUCTIONS, HOST_TIMED, REQUEST_CPU]);

/**
 * Options given on the command line, split: those of a measurer a suite's cases choose (--cpu-limit) wait until
 * the cases are known; the rest go to the measurer the options choose.
 */
export function splitSuiteOptions<T>(given: Readonly<Record<string, T>>): { chosen: Record<string, T>; suiteOwned: Record<string, T> } {
  const owned = new Set(MEASURERS.chosenBy('suite').flatMap((m) => (m.options ?? []).map((o) => o.name)));
  const entries = Object.entries(given);
  return { chosen: Object.fromEntries(entries.filter(([name]) => !owned.has(name))), suiteOwned: Object.fromEntries(entries.filter(([name]) => owned.has(name))) };
}

