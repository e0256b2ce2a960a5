/**
 * A loaded run as the store's rows, and the rows back as the run a history
 * reads: the run's row (its order keys, machine, notes and the rest of its
 * history record as JSON), a row per arm, a row per case × variant. Values
 * leave and come back through JSON or a double, both exact, so a history from
 * the store is the history of the file.
 */
import { POINT_COLUMNS, type ARM_COLUMNS, type FIGURE_COLUMNS, type RUN_COLUMNS } from './schema.ts';
import { TIME_PER_OP, type RunRecord } from '@rtbench/core/schema';
import type { ArmSummary, HistoryRead, HistoryRecord, HistoryResult, HistoryVariant } from '@rtbench/verdicts';

type Cell = string | number | null;

/** A row as the engines return it, by column. */
type Row<C extends readonly string[]> = Record<C[number], Cell>;
export type RunRow = Row<typeof RUN_COLUMNS>;
export type ArmRow = Row<typeof ARM_COLUMNS>;
export type FigureRow = Row<typeof FIGURE_COLUMNS>;
/**
 * A figure's numbers as a history's cursor reads them: its run's place in
 * the order asked for, then POINT_COLUMNS, as an array (both engines hand
 * on an array a row faster than an object).
 */
export type PointRow = readonly Cell[];

/** Where each of POINT_COLUMNS stands in a PointRow. */
const AT = Object.fromEntries(['run', ...POINT_COLUMNS].map((c, i) => [c, i])) as Record<'run' | (typeof POINT_COLUMNS)[number], number>;

/** A cursor row's run, case, variant and whether it has a figure. */
export const pointOf = (row: PointRow): { run: number; caseId: string; variantId: string; figure: boolean } =>
  ({ run: Number(row[AT.run]), caseId: String(row[AT.case_id]), variantId: String(row[AT.variant_id]), figure: row[AT.median] !== null });

/** The rows of one run. */
export interface RunRows {
  run: RunRow;
  arms: ArmRow[];
  figures: FigureRow[];
}

/** What of a run's history record its run row's `facts` hold: all but its arms and figures. */
type Facts = Omit<HistoryRecord, 'variants' | 'results'>;

type ArmColumn = 'arm_median' | 'arm_rounds' | 'log_values' | 'log_units' | 'log_mean' | 'log_variance' | 'work_digest' | 'work_rounded' | 'work_answers' | 'without_work';

/** A double or null: NaN (the variance of one unit) is stored as null, which neither engine keeps as NaN alike. */
const real = (x: number | undefined): Cell => (x === undefined || Number.isNaN(x) ? null : x);

/** A figure's arm summary as its columns (all null without one). */
function armColumns(variantId: string, arm: ArmSummary | undefined): Record<ArmColumn, Cell> {
  const m = arm?.moments;
  const work = arm?.work;
  // The work's variant is the figure's own (its variant_id column).
  if (work && work.variantId !== variantId) throw new Error(`an arm's work names variant ${work.variantId} in a figure of ${variantId}`);
  return {
    arm_median: real(arm?.median),
    arm_rounds: arm?.rounds ?? null,
    log_values: m?.values ?? null,
    log_units: m?.units ?? null,
    log_mean: real(m?.mean),
    log_variance: real(m?.variance),
    work_digest: work?.digest ?? null,
    work_rounded: work?.rounded ?? null,
    work_answers: work?.answers ? JSON.stringify(work.answers) : null,
    without_work: work?.withoutWork ? 1 : null,
  };
}

type ArmCells = Pick<FigureRow, ArmColumn | 'variant_id'>;

/** The arm summary a figure's columns hold (undefined for a figure without one); `work` makes its work (workOf, or one copy of each). */
function armOf(row: ArmCells, work: (row: ArmCells) => ArmSummary['work']): ArmSummary | undefined {
  if (row.arm_median === null) return undefined;
  const moments = row.log_values === null ? undefined : { values: Number(row.log_values), units: Number(row.log_units), mean: Number(row.log_mean), variance: row.log_variance === null ? NaN : Number(row.log_variance) };
  return { median: Number(row.arm_median), rounds: Number(row.arm_rounds), ...(moments ? { moments } : {}), work: work(row) };
}

/** The work a figure's columns hold. */
const workOf = (intern: Interned) => (row: ArmCells): ArmSummary['work'] => ({
  variantId: intern(row.variant_id),
  ...optionalOf(intern)('digest', row.work_digest),
  ...optional('rounded', row.work_rounded),
  ...(row.work_answers === null ? {} : { answers: JSON.parse(text(row.work_answers)) as NonNullable<ArmSummary['work']['answers']> }),
  ...(row.without_work === null ? {} : { withoutWork: true as const }),
});

/**
 * The arms of a history's cursor: each point's arm summary, one copy of each
 * work (a series repeats its work run after run, and a request case's
 * answers are parsed once).
 */
export function pointArms(): (row: PointRow) => ArmSummary | undefined {
  const works = new Map<string, ArmSummary['work']>();
  const make = workOf(internedStrings());
  const work = (row: ArmCells): ArmSummary['work'] => {
    const key = `${row.variant_id}\u0000${row.work_digest}\u0000${row.work_rounded}\u0000${row.work_answers}\u0000${row.without_work}`;
    let known = works.get(key);
    if (!known) works.set(key, (known = make(row)));
    return known;
  };
  const cells = (row: PointRow): ArmCells => ({
    variant_id: row[AT.variant_id]!,
    arm_median: row[AT.arm_median]!,
    arm_rounds: row[AT.arm_rounds]!,
    log_values: row[AT.log_values]!,
    log_units: row[AT.log_units]!,
    log_mean: row[AT.log_mean]!,
    log_variance: row[AT.log_variance]!,
    work_digest: row[AT.work_digest]!,
    work_rounded: row[AT.work_rounded]!,
    work_answers: row[AT.work_answers]!,
    without_work: row[AT.without_work]!,
  });
  return (row) => armOf(cells(row), work);
}

/** A loaded run as rows: what a history reads of it (`read`), and its arms' engines from its record beside their versions. */
export function storedRun(read: HistoryRead, run: RunRecord): RunRows {
  const { digest, notes } = read;
  const { variants, results, ...facts } = read.record;
  return {
    run: { digest, run_id: facts.id, machine: facts.machine, suite: facts.suite, started_at: facts.startedAt, git_commit: facts.git?.commit ?? null, notes: JSON.stringify(notes ?? []), facts: JSON.stringify(facts) },
    arms: variants.map((v, position) => ({
      digest,
      position,
      variant_id: v.id,
      runtime: v.runtime,
      version: v.version ?? null,
      engine: run.variants[position]?.engine ?? null,
      engine_version: v.engineVersion ?? null,
      binary_sha256: v.binarySha256 ?? null,
      binary_git: v.binaryGit ? JSON.stringify(v.binaryGit) : null,
    })),
    figures: results.map((r, position) => ({
      digest,
      position,
      case_id: r.caseId,
      variant_id: r.variantId,
      unit: (facts.cases.find((c) => c.id === r.caseId)?.metric ?? TIME_PER_OP).unit,
      median: r.figure?.median ?? null,
      ci_low: r.figure?.ci?.[0] ?? null,
      ci_high: r.figure?.ci?.[1] ?? null,
      note: r.note ?? null,
      round_digest: r.digest ?? null,
      process_medians: JSON.stringify(r.processMedians),
      ...armColumns(r.variantId, r.arm),
    })),
  };
}

/** Rows of several runs, each table's ordered by digest and position, as each run's rows by its digest. */
export function rowsByRun(runs: Iterable<RunRow>, arms: Iterable<ArmRow>, figures: Iterable<FigureRow>): Map<string, RunRows> {
  const found = new Map<string, RunRows>();
  for (const run of runs) found.set(String(run.digest), { run, arms: [], figures: [] });
  for (const arm of arms) found.get(String(arm.digest))?.arms.push(arm);
  for (const figure of figures) found.get(String(figure.digest))?.figures.push(figure);
  return found;
}

/** A row's values in its table's column order, for an INSERT. */
export const valuesOf = <C extends readonly string[]>(columns: C, row: Row<C>): Cell[] => columns.map((c: C[number]) => row[c]);

const text = (cell: Cell): string => String(cell);

/** One copy of each text that many rows repeat (ids, digests, versions). */
export type Interned = (cell: Cell) => string;

/**
 * A reading's interned texts: a store's rows give a new string for each
 * cell, and ten thousand runs repeat their case and variant ids, digests and
 * versions in every row; one copy of each keeps a history's runs small.
 */
export function internedStrings(): Interned {
  const seen = new Map<string, string>();
  return (cell) => {
    const s = String(cell);
    const known = seen.get(s);
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

const optionalOf = (intern: Interned) => <K extends string>(key: K, cell: Cell): Partial<Record<K, string>> => (cell === null ? {} : ({ [key]: intern(cell) } as Record<K, string>));
const optional = optionalOf(String);

function variantOf(row: ArmRow, intern: Interned): HistoryVariant {
  const optional = optionalOf(intern);
  return {
    id: intern(row.variant_id),
    runtime: intern(row.runtime),
    ...optional('version', row.version),
    ...optional('engineVersion', row.engine_version),
    ...optional('binarySha256', row.binary_sha256),
    ...(row.binary_git === null ? {} : { binaryGit: JSON.parse(text(row.binary_git)) as NonNullable<HistoryVariant['binaryGit']> }),
  };
}

function resultOf(row: FigureRow, intern: Interned): HistoryResult {
  const arm = armOf(row, workOf(intern));
  const median = row.median === null ? undefined : Number(row.median);
  const optional = optionalOf(intern);
  return {
    caseId: intern(row.case_id),
    variantId: intern(row.variant_id),
    ...(median === undefined ? {} : { figure: { median, ...(row.ci_low === null ? {} : { ci: [Number(row.ci_low), Number(row.ci_high)] as [number, number] }) } }),
    ...optional('note', row.note),
    processMedians: JSON.parse(text(row.process_medians)) as number[],
    ...optional('digest', row.round_digest),
    ...(arm ? { arm } : {}),
  };
}

/** The run a store's rows hold, as the loader and history-record.ts make it for `file`. */
export function historyReadOf(file: string, { run, arms, figures }: RunRows, intern: Interned = String): HistoryRead {
  const facts = JSON.parse(text(run.facts)) as Facts;
  const notes = JSON.parse(text(run.notes)) as string[];
  return { record: { ...facts, variants: arms.map((row) => variantOf(row, intern)), results: figures.map((row) => resultOf(row, intern)) }, file, digest: text(run.digest), ...(notes.length ? { notes } : {}) };
}
