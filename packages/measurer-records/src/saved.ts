/**
 * The measurers' records by kind, as a saved run names them: its kind known
 * or refused, its measurer block and round blocks validated, its words for a
 * run that saved none, its doubts and the view options it brings. A registry
 * is a value (RecordRegistry), so a test adds a measurer's record to one of
 * its own; the measurers' registry keeps one of its descriptors' records.
 */
import { roundSchema, type MeasuredBy, type MeasurerKind, type RoundRecord, type RunRecord, type VerdictBasis, type VerdictParameters } from '@rtbench/core/schema';
import type { ZodError } from 'zod';
import type { MeasurerRecord, ShownWith } from './record.ts';
import { UNNAMED_KIND, unknownMeasurer, verdictOfRuns, type EngineLookup } from './verdict-defaults.ts';
import { DUET_RECORD } from './duet.ts';
import { HOST_TIMED_RECORD } from './host-timed.ts';
import { INSTRUCTIONS_RECORD } from './instructions.ts';
import { LOCKSTEP_RECORD } from './lockstep.ts';
import { PROCESSES_RECORD } from './processes.ts';
import { REQUEST_CPU_RECORD } from './request-cpu.ts';

/** The fields every round has (core's round schema); the rest of a round is its measurer's own blocks. */
const ROUND_FIELDS = new Set(Object.keys(roundSchema.shape));

/** A saved field's first problem, and where (`at` and the path below it). */
function issueAt(error: ZodError, at: string): string {
  const issue = error.issues[0];
  return issue ? `${issue.message} at ${[at, ...issue.path.map(String)].join('.')}` : 'invalid';
}


export class RecordRegistry {
  /** Several records may share a kind (the two lockstep schedules): the first is read. */
  constructor(private readonly records: readonly MeasurerRecord[]) {}

  /** The record a saved run names by its kind (a run that names none is from fresh processes, before lockstep); a kind this registry lacks is refused. */
  recorded(kind: MeasurerKind | undefined): MeasurerRecord {
    const found = this.known(kind);
    if (!found) throw unknownMeasurer(kind, this.records.map((r) => r.kind));
    return found;
  }

  /** The record a saved run names by its kind, or undefined where this registry lacks it. */
  private known(kind: MeasurerKind | undefined): MeasurerRecord | undefined {
    return this.records.find((r) => r.kind === (kind ?? UNNAMED_KIND));
  }

  /**
   * A parsed saved run's options with its measurer block in today's shape:
   * fields a run saved before the block kept among its options (read from
   * the raw JSON, since the run schema no longer names them) are moved into
   * it, then its measurer's schema validates the fields; a problem is one line.
   */
  measurerBlock(options: RunRecord['options'], raw: Readonly<Record<string, unknown>>): RunRecord['options'] {
    const record = this.recorded(options.measurer);
    if (!record.schema) return options;
    const older = options.measurerFields === undefined ? record.older?.(raw) : undefined;
    const fields = options.measurerFields ?? older;
    if (fields === undefined) return options;
    const parsed = record.schema.safeParse(fields);
    if (!parsed.success) throw new Error(`its measurer's fields do not match what ${options.measurer ?? 'processes'} records: ${issueAt(parsed.error, 'measurerFields')}`);
    return { ...options, measurerFields: parsed.data };
  }

  /**
   * A parsed saved run's results with each round's own blocks (what it holds beyond the fields every round has) as
   * its measurer declares them (rounds): each validated by its schema, and one it does not declare dropped, as
   * the run schema drops a field it does not name; a problem is one line. A kind this registry lacks keeps them unread.
   */
  roundBlocks(run: Pick<RunRecord, 'options' | 'results'>): RunRecord['results'] {
    const found = this.known(run.options.measurer);
    const own = (round: RoundRecord): boolean => Object.keys(round).some((key) => !ROUND_FIELDS.has(key));
    if (!found || !run.results.some((r) => r.rounds.some(own))) return run.results;
    const checked = (at: string, [key, value]: [string, unknown]): [string, unknown][] => {
      const parsed = ROUND_FIELDS.has(key) ? { success: true as const, data: value } : found.rounds?.[key]?.safeParse(value);
      if (parsed && !parsed.success) throw new Error(`a round's ${key} does not match what ${found.kind} records: ${issueAt(parsed.error, `${at}.${key}`)}`);
      return parsed ? [[key, parsed.data]] : [];
    };
    return run.results.map((result, r) => ({ ...result, rounds: result.rounds.map((round, i) => Object.fromEntries(Object.entries(round).flatMap((entry) => checked(`results.${r}.rounds.${i}`, entry))) as RoundRecord) }));
  }

  /** The view options a saved run is shown with unless the command line gives its own (a run saved with a CPU limit per request). */
  shownWith(options: RunRecord['options']): ShownWith {
    // A kind this registry lacks brings none: a run that carries its own words needs no measurer to be shown.
    return (options.measurerFields && this.known(options.measurer)?.shownWith?.(options.measurerFields)) ?? {};
  }

  /** The untimed run-up a saved run's samples were asked to have, in ms, where its measurer records one (a known kind only). */
  runUpMs(options: Pick<RunRecord['options'], 'measurer' | 'measurerFields'>): number | undefined {
    return options.measurerFields && this.known(options.measurer)?.runUpMs?.(options.measurerFields);
  }

  /** What a saved run's record cannot say that its analysis assumes, in its measurer's words (a known kind only). */
  doubts(run: RunRecord): string[] {
    return this.known(run.options.measurer)?.doubts?.(run) ?? [];
  }

  /**
   * The verdict's parameters for a view of saved runs of one measurer: the largest threshold (each run's as it saved
   * it, else its measurer's for its variants' engines, found by `engineNamed`) and the first run's confidence; for
   * none, or runs of different measurers, the first record's (the default measurer's) for no engine.
   */
  verdictOfRuns(runs: readonly VerdictBasis[], engineNamed: EngineLookup): VerdictParameters {
    return verdictOfRuns(runs, engineNamed, (kind) => this.recorded(kind).verdict, this.records[0]!.verdict);
  }

  /** How a saved run was measured: as it says, or, for an older run that does not, as its measurer describes its options. */
  measuredBy(options: RunRecord['options']): MeasuredBy {
    return options.measuredBy ?? this.recorded(options.measurer).describe(options);
  }
}

/**
 * The records of rtbench's measurers, the one list of them: each descriptor imports its own record (measurers'
 * measurers/<name>.ts), and the measurers' registry reads saved runs through this list, in this order.
 */
export const MEASURER_RECORDS = new RecordRegistry([LOCKSTEP_RECORD, PROCESSES_RECORD, DUET_RECORD, INSTRUCTIONS_RECORD, HOST_TIMED_RECORD, REQUEST_CPU_RECORD]);
