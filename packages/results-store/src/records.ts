/**
 * A loaded run as the store's rows, and the rows back as the run a history
 * reads: the run's row (its order keys, machine, notes and the rest of its
 * history record as JSON), a row per arm, a row per case × variant. Values
 * leave and come back through JSON or a double, both exact, so a history from
 * the store is the history of the file.
 */
import { createHash } from 'node:crypto';
import { ARM_CELLS, type ARM_COLUMNS, type FACT_COLUMNS, type FIGURE_COLUMNS, type LAYOUT_COLUMNS, type RUN_COLUMNS, type SHAPE_COLUMNS, type WALK_COLUMNS } from './schema.ts';
import type { RunRecord } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import type { ArmReading, ArmSummary, HistoryRead, HistoryRecord, HistoryResult, HistoryVariant } from '@rtbench/verdicts';

export type Cell = string | number | null;

/** A row as the engines return it, by column. */
type Row<C extends readonly string[]> = Record<C[number], Cell>;
export type RunRow = Row<typeof RUN_COLUMNS>;
export type ArmRow = Row<typeof ARM_COLUMNS>;
export type FigureRow = Row<typeof FIGURE_COLUMNS>;
export type LayoutRow = Row<typeof LAYOUT_COLUMNS>;
export type ShapeRow = Row<typeof SHAPE_COLUMNS>;
/** A run's walk row: `numbers` is bytes, the one cell of its kind. */
export type WalkRow = Omit<Row<typeof WALK_COLUMNS>, 'numbers'> & { numbers: Uint8Array };
/** A walk row as the cursor hands it on: its run's place in the order asked for, its layout's id, its numbers, its neighbour p-values (neighbours.ts). */
export type WalkCursorRow = readonly [run: Cell, layout: Cell, numbers: Uint8Array, neighbours: Uint8Array | null];

/**
 * A run's facts as a store gives them for a history's first reading: what is
 * its own (its id, start, commit and notes) and the id of its shape, what it
 * shares with the runs of one suite, machine and arms (shapeOf).
 */
export type RunFacts = Row<typeof FACT_COLUMNS>;

/** The rows of one run. */
export interface RunRows {
  run: RunRow;
  arms: ArmRow[];
  figures: FigureRow[];
}

/** The rows a run is stored as: its rows and its shape's. */
export interface StoredRunRows extends RunRows {
  shape: ShapeRow;
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
type WorkCells = Pick<FigureRow, 'variant_id' | 'work_digest' | 'work_rounded' | 'work_answers' | 'without_work'>;

/** The arm summary a figure's columns hold (undefined for a figure without one); `work` makes its work (workOf, or one copy of each). */
function armOf(row: ArmCells, work: (row: ArmCells) => ArmSummary['work']): ArmSummary | undefined {
  if (row.arm_median === null) return undefined;
  const moments = row.log_values === null ? undefined : { values: Number(row.log_values), units: Number(row.log_units), mean: Number(row.log_mean), variance: row.log_variance === null ? NaN : Number(row.log_variance) };
  return { median: Number(row.arm_median), rounds: Number(row.arm_rounds), ...(moments ? { moments } : {}), work: work(row) };
}

/** The work a figure's columns hold. */
const workOf = (intern: Interned) => (row: WorkCells): ArmSummary['work'] => ({
  variantId: intern(row.variant_id),
  ...optionalOf(intern)('digest', row.work_digest),
  ...optional('rounded', row.work_rounded),
  ...(row.work_answers === null ? {} : { answers: JSON.parse(text(row.work_answers)) as NonNullable<ArmSummary['work']['answers']> }),
  ...(row.without_work === null ? {} : { withoutWork: true as const }),
});

/** What a walk row keeps of each figure, in order: null cells as NaN. */
const WALK_NUMBERS = ['median', 'arm_median', 'arm_rounds', 'log_values', 'log_units', 'log_mean', 'log_variance'] as const;
const STRIDE = WALK_NUMBERS.length * 8;
/** What a layout keeps of each figure: its series and its arm's work. */
const LAYOUT_CELLS = ['case_id', 'variant_id', 'work_digest', 'work_rounded', 'work_answers', 'without_work'] as const;

/**
 * A run's walk row and its layout, from its figure rows in their order (at
 * ingest, and for a store of the format before walks): each figure's
 * comparison numbers packed as little-endian doubles, and what each position
 * is (its case, variant and work) as a layout many runs share.
 */
export function walkOf(digest: string, figures: readonly FigureRow[]): { walk: WalkRow; layout: LayoutRow } {
  const series = JSON.stringify(figures.map((f) => LAYOUT_CELLS.map((c) => f[c])));
  const id = createHash('sha256').update(series).digest('hex').slice(0, 32);
  const numbers = new Uint8Array(figures.length * STRIDE);
  const view = new DataView(numbers.buffer);
  figures.forEach((f, i) => WALK_NUMBERS.forEach((c, k) => view.setFloat64(i * STRIDE + k * 8, f[c] === null ? NaN : Number(f[c]), true)));
  return { walk: { digest, layout: id, numbers }, layout: { id, series } };
}

/** Each figure row's run digest, its rows in order (a store's figures of several runs, ordered by digest and position). */
export function figuresByRun(rows: Iterable<FigureRow>): Map<string, FigureRow[]> {
  const found = new Map<string, FigureRow[]>();
  for (const row of rows) {
    const digest = String(row.digest);
    const held = found.get(digest);
    if (held) held.push(row);
    else found.set(digest, [row]);
  }
  return found;
}

/** A layout's positions: each figure's case, variant and the work its arm did (one copy per layout). */
export function layoutOf(series: string, intern: Interned): { caseId: string; variantId: string; work: ArmSummary['work'] }[] {
  const make = workOf(intern);
  return (JSON.parse(series) as Cell[][]).map((cells) => {
    const row = Object.fromEntries(LAYOUT_CELLS.map((c, i) => [c, cells[i] ?? null])) as Record<(typeof LAYOUT_CELLS)[number], Cell>;
    return { caseId: intern(row.case_id), variantId: intern(row.variant_id), work: make(row) };
  });
}

/** The arm a walk row's figure `at` compares by (undefined: no figure, or no arm), with `work` its layout's. */
function walkArm(numbers: DataView, at: number, work: ArmSummary['work']): ArmSummary | undefined {
  if (!walkHasArm(numbers, at)) return undefined;
  const o = at * STRIDE;
  const armMedian = numbers.getFloat64(o + 8, true);
  const values = numbers.getFloat64(o + 24, true);
  const moments = Number.isNaN(values) ? undefined : { values, units: numbers.getFloat64(o + 32, true), mean: numbers.getFloat64(o + 40, true), variance: numbers.getFloat64(o + 48, true) };
  return { median: armMedian, rounds: numbers.getFloat64(o + 16, true), ...(moments ? { moments } : {}), work };
}

/** Whether a walk row's figure `at` has an arm (walkArm gives one). */
export function walkHasArm(numbers: DataView, at: number): boolean {
  const o = at * STRIDE;
  return !Number.isNaN(numbers.getFloat64(o, true)) && !Number.isNaN(numbers.getFloat64(o + 8, true));
}

/** A walk row's figure's arm, read when the walk asks for it (verdicts' ArmReading). */
export class WalkRowArm implements ArmReading {
  constructor(private readonly numbers: DataView, private readonly at: number, private readonly work: ArmSummary['work']) {}
  summary(): ArmSummary {
    return walkArm(this.numbers, this.at, this.work)!;
  }
}

/** How many figures a walk row holds. */
export const walkLength = (numbers: Uint8Array): number => numbers.byteLength / STRIDE;

/**
 * A run's shape: its facts but for what is its own (id, start, commit; kept
 * in place as null, so a run read back has its keys in the order it was
 * stored), with its arms' cells (ARM_CELLS) as one JSON array. The runs of one
 * suite on one machine and set of arms share it, and a history parses it once
 * for all of them (historyFactsOf).
 */
function shapeOf(facts: Facts, arms: readonly Pick<ArmRow, (typeof ARM_CELLS)[number]>[]): ShapeRow {
  const shared = JSON.stringify({ ...facts, id: null, startedAt: null, ...(facts.git === undefined ? {} : { git: null }) });
  const armCells = JSON.stringify(arms.map((row) => ARM_CELLS.map((c) => row[c])));
  return { id: createHash('sha256').update(shared).update('\0').update(armCells).digest('hex').slice(0, 32), facts: shared, arms: armCells };
}

/** A run row's `git` cell: its commit as JSON, null without one. */
const gitCell = (facts: Facts): Cell => (facts.git === undefined ? null : JSON.stringify(facts.git));

/** A stored run's shape and `git` cell, from its run and arm rows (a store of the format before shapes). */
export function shapeCellsOfRows({ run, arms }: Pick<RunRows, 'run' | 'arms'>): { shape: ShapeRow; git: Cell } {
  const facts = JSON.parse(text(run.facts)) as Facts;
  return { shape: shapeOf(facts, arms), git: gitCell(facts) };
}

/** A loaded run as rows: what a history reads of it (`read`), and its arms' engines from its record beside their versions. */
export function storedRun(read: HistoryRead, run: RunRecord): StoredRunRows {
  const { digest, notes } = read;
  const { variants, results, ...facts } = read.record;
  const arms = variants.map((v, position): ArmRow => ({
    digest,
    position,
    variant_id: v.id,
    runtime: v.runtime,
    version: v.version ?? null,
    engine: run.variants[position]?.engine ?? null,
    engine_version: v.engineVersion ?? null,
    binary_sha256: v.binarySha256 ?? null,
    binary_git: v.binaryGit ? JSON.stringify(v.binaryGit) : null,
  }));
  const shape = shapeOf(facts, arms);
  return {
    run: {
      digest,
      run_id: facts.id,
      machine: facts.machine,
      suite: facts.suite,
      started_at: facts.startedAt,
      git_commit: facts.git?.commit ?? null,
      notes: JSON.stringify(notes ?? []),
      facts: JSON.stringify(facts),
      git: gitCell(facts),
      shape: shape.id,
    },
    arms,
    shape,
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

function variantOf(row: Pick<ArmRow, (typeof ARM_CELLS)[number]>, intern: Interned): HistoryVariant {
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

/** A figure row as the result a history reads. */
export function resultOf(row: FigureRow, intern: Interned): HistoryResult {
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

/** A shape's facts and variants as a reading makes them: once for all the runs that share it. */
interface ReadShape {
  facts: Facts;
  variants: HistoryVariant[];
}

/** A reading's shapes by id (`texts`: every shape the store holds), each parsed when a run first names it. */
export function shapesOf(texts: ReadonlyMap<string, Omit<ShapeRow, 'id'>>, intern: Interned): (id: string) => ReadShape {
  const read = new Map<string, ReadShape>();
  return (id) => {
    let shape = read.get(id);
    if (shape === undefined) {
      const row = texts.get(id);
      if (row === undefined) throw new Error(`a run names shape ${id}, which its store does not hold`);
      const cells = JSON.parse(text(row.arms)) as Cell[][];
      const variants = cells.map((arm) => variantOf(Object.fromEntries(ARM_CELLS.map((c, i) => [c, arm[i] ?? null])) as Pick<ArmRow, (typeof ARM_CELLS)[number]>, intern));
      read.set(id, (shape = { facts: JSON.parse(text(row.facts)) as Facts, variants }));
    }
    return shape;
  };
}

/**
 * The run a store's facts hold, as historyReadOf makes it without its results
 * (a history whose points the store's cursor reads): its shape's facts, shared
 * with the runs of that shape, and its own. Records are read, never changed.
 */
export function historyFactsOf(file: string, run: RunFacts, shapes: (id: string) => ReadShape): HistoryRead {
  const { facts, variants } = shapes(text(run.shape));
  const git = run.git === null ? {} : { git: JSON.parse(text(run.git)) as NonNullable<Facts['git']> };
  const notes = run.notes === '[]' ? [] : (JSON.parse(text(run.notes)) as string[]);
  return { record: { ...facts, id: text(run.run_id), startedAt: text(run.started_at), ...git, variants: [...variants], results: [] }, file, digest: text(run.digest), ...(notes.length ? { notes } : {}) };
}
