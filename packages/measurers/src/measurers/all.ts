/**
 * Every measurer, by descriptor: the names the CLI accepts (--schedule,
 * --measure), the measurer a suite's own kind of case chooses, their own
 * options, help, errors and defaults, and the kinds a saved run may name,
 * come from this one list. A new measurer is one file in this folder and one
 * entry here. A registry is a value (MeasurerRegistry), so a test adds a
 * measurer to one of its own without touching this list.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import type { MeasurerKind } from '@rtbench/core/schema';
import { MEASURER_RECORDS, RecordRegistry } from '@rtbench/measurer-records';
import { broughtIsolationOfEntry } from '@rtbench/suite-loader';
import { MeasurerRefused, type MeasurerDescriptor, type MeasurerOption, type MeasurerOptionValue, type PrepareContext, type PreparedMeasurer } from '../measurer.ts';
import { DUET } from './duet.ts';
import { HOST_TIMED } from './host-timed.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { LOCKSTEP, LOCKSTEP_PER_CASE, LOCKSTEP_SHARED } from './lockstep.ts';
import { PROCESSES } from './processes.ts';
import { REQUEST_CPU } from './request-cpu.ts';

/** The timing measurers' warmup bound, for a plan's time-out check. */
export { longestWarmupMs } from './steady-rule.ts';

/** How a measurer is named on the command line: "--schedule lockstep", "--measure instructions", or by its suite's kind of case. */
function choiceOf(m: MeasurerDescriptor): string {
  return m.chosenBy === 'suite' ? `a suite ${kindOf(m)}` : `--${m.chosenBy} ${m.name}`;
}

/** What a suite measured by its own measurer is, for the lines that refuse what does not apply to it: "timed by the host (start-up, HTTP load)". */
export function kindOf(m: MeasurerDescriptor): string {
  return m.suiteKind ?? `measured by ${m.name}`;
}

/** What chooses a run's measurer: --measure (parsed: time is none), --schedule as given, and the suite (a native one's cases, listed on the host). */
interface MeasurerAsked {
  measured?: MeasurerDescriptor | undefined;
  schedule?: string | undefined;
  suite: { name: string; entry: string; cases?: readonly CaseListing[] | undefined };
}

/** The measurer a run takes, and the note that says why when the command line did not choose it (a brought file's format). */
interface MeasurerChoice {
  measurer: MeasurerDescriptor;
  note?: string;
}

/** The measurer a brought file runs under when the command line names none, and the note that says why. */
interface ImpliedSchedule extends Required<MeasurerChoice> {
  /** What runs so, for messages: "a Node core file". */
  what: string;
}

export class MeasurerRegistry {
  /**
   * The default of each way of choosing comes first (lockstep for --schedule). `records`: what saved runs are read
   * and worded by, by kind: rtbench's list (MEASURER_RECORDS), or, for a registry of a test's own, its measurers'.
   */
  constructor(
    private readonly measurers: readonly MeasurerDescriptor[],
    readonly records: RecordRegistry = new RecordRegistry(measurers.map((m) => m.record)),
  ) {
    // A measurer whose record is not on the list its saved runs are read through fails here, as the registry loads.
    for (const m of measurers) records.recorded(m.record.kind);
  }

  /** Every measurer, in the list's order. */
  every(): readonly MeasurerDescriptor[] {
    return this.measurers;
  }

  /** The measurers chosen by `how` (--schedule or --measure), the default first. */
  chosenBy(how: MeasurerDescriptor['chosenBy']): MeasurerDescriptor[] {
    return this.measurers.filter((m) => m.chosenBy === how);
  }

  /**
   * The run's measurer, chosen once, before anything is resolved: a suite
   * whose cases are all of a kind with a measurer of its own (host-timed,
   * request-shaped) is measured by it, and --schedule or --measure is
   * refused; else --measure's, --schedule's, the one a brought file's format
   * implies, or the first schedule. Throws MeasurerRefused in one line.
   */
  choose({ measured, schedule, suite }: MeasurerAsked): MeasurerChoice {
    if (measured && schedule !== undefined) throw new MeasurerRefused(`--schedule applies to timing; --measure ${measured.name} is ${measured.help}`);
    const scheduled = schedule === undefined ? undefined : this.scheduleNamed(schedule);
    const own = suite.cases?.length ? this.chosenBy('suite').find((m) => m.owns?.(suite.cases!)) : undefined;
    if (own && (scheduled || measured)) {
      throw new MeasurerRefused(`${suite.name} is ${kindOf(own)}: --schedule and --measure ${this.chosenBy('measure').map((m) => m.name).join(' or ')} apply to cases that run inside the runtime`);
    }
    const chosen = own ?? measured ?? scheduled;
    return chosen ? { measurer: chosen } : (broughtSchedule(suite.entry, this) ?? { measurer: this.chosenBy('schedule')[0]! });
  }

  /** `--schedule`: lockstep sets of live processes, or a fresh process per round. */
  private scheduleNamed(text: string): MeasurerDescriptor {
    const schedules = this.chosenBy('schedule');
    const schedule = schedules.find((s) => s.name === text.trim());
    if (schedule) return schedule;
    const names = schedules.map((s, k) => `${s.name} (${s.help}${k === 0 ? '; the default' : ''})`);
    throw new MeasurerRefused(`--schedule ${text}: expected ${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`);
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

  /** The measurer a saved run names by its kind (a run that names none is from fresh processes, before lockstep); a kind this registry lacks is refused (UnknownMeasurer). */
  recorded(kind: MeasurerKind | undefined): MeasurerDescriptor {
    const { kind: found } = this.records.recorded(kind);
    return this.measurers.find((m) => m.record.kind === found)!;
  }
}

/** rtbench's measurers. */
export const MEASURERS = new MeasurerRegistry([LOCKSTEP, LOCKSTEP_PER_CASE, LOCKSTEP_SHARED, PROCESSES, DUET, INSTRUCTIONS, HOST_TIMED, REQUEST_CPU], MEASURER_RECORDS);

/**
 * The first schedule that gives the isolation a brought file's format needs
 * (a Node core file's configurations and a Deno.bench file's benchmarks:
 * processes of their own per case; the suite loader detects the format);
 * undefined for a file that needs none.
 */
export function broughtSchedule(entry: string, registry: MeasurerRegistry = MEASURERS): ImpliedSchedule | undefined {
  const need = broughtIsolationOfEntry(entry);
  const measurer = need ? registry.chosenBy('schedule').find((m) => m.isolation === need.needs) : undefined;
  if (!need || !measurer) return undefined;
  return { measurer, what: need.what, note: `${need.what}: ${need.why} (--schedule ${measurer.name})` };
}

