/**
 * The metrics sections as plain data. `--metrics gc`: under a bench view, a
 * row per case × variant; under a comparison, per section, a line per case
 * with the change in GC and allocation next to the change in time.
 * `--metrics memory`: a row per case × variant of what it cost in memory
 * (memory.ts). Each text reporter lays them out (reporters/metrics.ts).
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { metricsCells, metricsChange, metricsRows, minorGcName, summarizeMetrics, type MetricsRow } from '../metrics.ts';
import { hasMemoryReadings, isRequestResult, memoryChangeText, memoryRows, REQUEST_NO_HEAP, REQUEST_ROWS, type MemoryRow } from '../memory.ts';
import { adjustedConfidence, peakChange, whyNoReadings, type UnreadRun } from '@rtbench/verdicts';
import type { ComparisonView, View } from './types.ts';

/** The GC view of a bench run: its rows, and why a variant reads n/a. */
export interface MetricsTableSection {
  kind: 'metrics-table';
  rows: MetricsRow[];
  /** "<variant>: <reason>", once each. */
  notes: string[];
}

/** The GC change lines under a comparison, and why a side reads n/a. */
export interface MetricsChangesSection {
  kind: 'metrics-changes';
  sections: { title: string; cases: { caseId: string; line: string }[] }[];
  /** "<arm>: <reason>", once each. */
  reasons: string[];
}

/** The memory view of a run: its rows, why a variant reads n/a, and, when the run holds no resident-memory readings at all, why. */
export interface MemoryTableSection {
  kind: 'memory-table';
  rows: MemoryRow[];
  /** "<variant>: <reason>", once each. */
  notes: string[];
  /** What some of its rows are, said after the key (a request case's row: its server's); absent: nothing more to say. */
  about?: string;
  /** Why the run holds no readings (absent: it holds some). */
  unread?: string;
  /** Under a paired comparison: per candidate arm, each case's change in peak memory beside its change in time. */
  changes?: { title: string; cases: { caseId: string; line: string }[] }[];
}

export type MetricsSection = MetricsTableSection | MetricsChangesSection | MemoryTableSection;

/** The sections --metrics names, and what each shows. */
export type MetricsViewName = 'gc' | 'memory';
export const METRICS_VIEWS: Readonly<Record<MetricsViewName, string>> = {
  gc: 'GC by kind, allocation per op and heap state',
  memory: 'peak resident memory, heap, bytes outside it, growth and leaks',
};

/** Finds an arm's result for a case: in one paired run, or in the run each arm came from. */
export type ResultLookup = (armId: string, caseId: string, side: 'baseline' | 'candidate') => Pick<CaseResult, 'rounds'> | undefined;

function lookupInRun(run: RunRecord): ResultLookup {
  return (armId, caseId) => run.results.find((r) => r.variantId === armId && r.caseId === caseId);
}

/** The part of a comparison the change lines read: arms per section, and each case's time ratio. */
export interface ComparisonSections {
  sections: {
    baseline: { id: string; label: string };
    candidate: { id: string; label: string };
    cases: { caseId: string; comparison?: { ratio: number } }[];
  }[];
}

function metricsTable(run: RunRecord): MetricsTableSection {
  const rows = metricsRows(run);
  const notes = new Set<string>();
  for (const row of rows) {
    const { note } = metricsCells(row.summary);
    if (note) notes.add(`${row.variantId}: ${note}`);
  }
  return { kind: 'metrics-table', rows, notes: [...notes] };
}

function memoryTable(run: UnreadRun): MemoryTableSection {
  const rows = memoryRows(run);
  const notes = new Set<string>();
  const requests = run.results.some((r) => r.memory !== undefined && isRequestResult(r));
  // The line about request rows says their heap's n/a once, for every runtime.
  for (const row of rows) for (const reason of row.reasons) if (!(requests && reason === REQUEST_NO_HEAP)) notes.add(`${row.variantId}: ${reason}`);
  return { kind: 'memory-table', rows, notes: [...notes], ...(requests ? { about: REQUEST_ROWS } : {}), ...(hasMemoryReadings(run) ? {} : { unread: whyNoReadings(run) }) };
}

/** Per comparison section, one line per case: the time change next to the change in GC and allocation. */
export function metricsChanges(report: ComparisonSections, lookup: ResultLookup): MetricsChangesSection {
  const reasons = new Set<string>();
  const sections = report.sections.map((section) => {
    const cases: { caseId: string; line: string }[] = [];
    for (const row of section.cases) {
      const base = lookup(section.baseline.id, row.caseId, 'baseline');
      const candidate = lookup(section.candidate.id, row.caseId, 'candidate');
      if (!base || !candidate) continue;
      const b = summarizeMetrics(base);
      const c = summarizeMetrics(candidate);
      for (const [arm, s] of [[section.baseline.label, b], [section.candidate.label, c]] as const) {
        const note = metricsCells(s).note;
        if (note) reasons.add(`${arm}: ${note}`);
      }
      cases.push({ caseId: row.caseId, line: metricsChange(row.comparison?.ratio, b, c, minorGcName(b.source)) });
    }
    return { title: `GC and allocation: ${section.candidate.label} vs ${section.baseline.label}`, cases };
  });
  return { kind: 'metrics-changes', sections, reasons: [...reasons] };
}

type SectionsByKind = { [K in View['kind']]?: (view: Extract<View, { kind: K }>) => MetricsSection };

/**
 * Per candidate arm, each case's peak memory against the baseline's with its
 * interval over process pairs, beside its time ratio: a flag that trades
 * speed for memory shows both sides. The intervals are adjusted together
 * (Bonferroni over the lines), as one table's claims are.
 */
function memoryChanges(view: ComparisonView): NonNullable<MemoryTableSection['changes']> {
  const result = (arm: string, caseId: string) => view.run.results.find((r) => r.variantId === arm && r.caseId === caseId);
  const found = view.sections.map((section) => ({
    section,
    cases: section.cases.flatMap((row) => {
      const base = result(section.baseline.id, row.caseId);
      const candidate = result(section.candidate.id, row.caseId);
      return base && candidate ? [{ row, base, candidate }] : [];
    }),
  }));
  const confidence = adjustedConfidence({ confidence: view.confidence, size: Math.max(1, found.reduce((n, f) => n + f.cases.length, 0)) });
  return found.map(({ section, cases }) => ({
    title: `Peak memory: ${section.candidate.label} vs ${section.baseline.label}`,
    cases: cases.map(({ row, base, candidate }) => ({ caseId: row.caseId, line: memoryChangeText(peakChange(candidate, base, confidence), confidence, row.comparison?.ratio) })),
  }));
}

/** The memory section of each kind of view that has one: a comparison's runs each get their table, a paired one its changes. */
const MEMORY_SECTIONS: SectionsByKind = {
  bench: (view) => memoryTable(view.run),
  comparison: (view) => (view.runs[1] ? memoryTable({ results: view.runs.flatMap((r) => r.run.results) }) : { ...memoryTable(view.run), changes: memoryChanges(view) }),
};

/** The GC section of each kind of view that has one (a history or claims has none). */
const SECTIONS: SectionsByKind = {
  bench: (view) => metricsTable(view.run),
  comparison: (view) => {
    const [first, second] = view.runs;
    // Unpaired: the baseline's results are in the first run, the candidate's in the second.
    const lookup: ResultLookup = second ? (arm, caseId, side) => lookupInRun((side === 'baseline' ? first! : second).run)(arm, caseId, side) : lookupInRun(view.run);
    return metricsChanges(view, lookup);
  },
};

/** The metrics section `name` shown after `view`, if its kind has one. */
export function metricsSection(view: View, name: MetricsViewName = 'gc'): MetricsSection | undefined {
  const sections = name === 'memory' ? MEMORY_SECTIONS : SECTIONS;
  return (sections[view.kind] as ((view: View) => MetricsSection) | undefined)?.(view);
}
