/**
 * From saved runs to a ComparisonReport (pure: no I/O).
 *
 * Paired (one run in compare mode): the unit of replication is the process,
 * and both arms of round i ran back to back for each case, so the per-round
 * medians of round i form a pair. Pairing removes what the two processes had
 * in common (machine state, a neighbour's burst) from the comparison.
 *
 * Unpaired (two saved runs): their rounds were not interleaved, so there is
 * nothing to pair; the per-round medians of each run are two samples.
 */
import { basename } from 'node:path';
import type { CaseResult, RunRecord, Variant } from '@rtbench/core/schema';
import type { ArmComparison, ArmInfo, CaseComparison, ComparisonReport, RunSource } from '@rtbench/report';
import { applyFdr, comparePaired, compareUnpaired, geometricMeanRatio, geometricMeanRatioUnpaired, median, type Comparison } from '@rtbench/stats';

export interface AnalyzeOptions {
  /** Relative noise threshold, e.g. 0.01 = 1%. */
  threshold: number;
  /** Confidence of the intervals; the FDR level is 1 - confidence. */
  confidence: number;
}

export const PAIRED_METHOD = 'paired: Hodges–Lehmann estimate of the per-round log ratios ln(candidate/baseline), CI by inverting the Wilcoxon signed-rank test';
export const UNPAIRED_METHOD = 'unpaired: two-sample Hodges–Lehmann shift of the per-round log times, CI by inverting the Mann–Whitney test';

export function armInfo(v: Variant, label = v.id, file?: string): ArmInfo {
  return {
    id: v.id,
    label,
    runtime: v.runtime,
    ...(v.version ? { version: v.version } : {}),
    ...(v.engine ? { engine: v.engine } : {}),
    ...(v.engineVersion ? { engineVersion: v.engineVersion } : {}),
    flags: v.flags,
    env: v.translatedFlags?.env ?? {},
    ...(v.binary ? { binary: v.binary } : {}),
    ...(v.binarySha256 ? { binarySha256: v.binarySha256 } : {}),
    ...(file ? { file } : {}),
  };
}

export function runSource(run: RunRecord, file?: string): RunSource {
  return {
    ...(file ? { file } : {}),
    id: run.id,
    suite: run.suite,
    startedAt: run.startedAt,
    rounds: run.options.rounds,
    timeMs: run.options.timeMs,
    warmupMs: run.options.warmupMs,
    order: run.options.order,
    cpu: run.host.cpuModel,
    cores: run.host.cores,
    loadavg: run.host.loadavg,
    command: run.command,
  };
}

/** Per-round medians keyed by round index (the pairing key). */
function roundMedians(result: CaseResult | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of result?.rounds ?? []) if (r.samples.length) out.set(r.round, median(r.samples));
  return out;
}

/** Why a case has no comparison, from the results of both arms. */
function unusableReason(label: (r: CaseResult) => string, ...results: (CaseResult | undefined)[]): string | undefined {
  for (const r of results) {
    if (!r) return 'not measured';
    if (r.status === 'unsupported') return `unsupported on ${label(r)}: ${r.failures[0]?.message ?? ''}`;
    if (!r.rounds.length) {
      const f = r.failures[r.failures.length - 1];
      return `no rounds on ${label(r)}${f ? ` (${f.kind}: ${firstLine(f.message)})` : ''}`;
    }
  }
  return undefined;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function digestOf(r: CaseResult | undefined): string | undefined {
  return r?.rounds[0]?.digest.hash;
}

function failedRounds(r: CaseResult | undefined): number {
  return r?.failures.filter((f) => f.kind !== 'unsupported' && f.kind !== 'digest-mismatch' && f.kind !== 'warning').length ?? 0;
}

interface Pending {
  row: CaseComparison;
  raw?: Comparison;
  /** Paired: the per-round log ratios; unpaired: the log times of each arm. */
  logRatios?: number[];
  logTimes?: { baseline: number[]; candidate: number[] };
}

/** FDR across every comparison in the report, then the geomean of each section. */
function finish(sections: { section: ArmComparison; pending: Pending[] }[], options: AnalyzeOptions, kind: 'paired' | 'unpaired'): void {
  const all = sections.flatMap((s) => s.pending.filter((p) => p.raw));
  const adjusted = applyFdr(all.map((p) => p.raw!), { alpha: 1 - options.confidence });
  all.forEach((p, i) => (p.row.comparison = adjusted[i]!));
  for (const { section, pending } of sections) {
    section.cases = pending.map((p) => p.row);
    const usable = pending.filter((p) => p.raw && !p.row.digests);
    const excluded = pending.filter((p) => p.raw && p.row.digests).length;
    if (usable.length < 2) continue;
    const agg =
      kind === 'paired'
        ? geometricMeanRatio(usable.map((p) => p.logRatios!), { confidence: options.confidence })
        : geometricMeanRatioUnpaired(usable.map((p) => p.logTimes!), { confidence: options.confidence });
    section.geomean = { ratio: agg.geomean, ci: agg.ci, cases: agg.cases, excluded };
  }
}

function positive(values: number[]): boolean {
  return values.every((v) => v > 0);
}

/**
 * One run in compare mode (or any run with two or more variants): each arm
 * after the first against the first, paired by round.
 */
export function analyzePairedRun(run: RunRecord, options: AnalyzeOptions, file?: string): ComparisonReport {
  const [baseline, ...candidates] = run.variants;
  if (!baseline || candidates.length === 0) throw new Error(`run ${run.id} has ${run.variants.length} variant(s); a paired comparison needs two or more`);
  const resultFor = new Map(run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const label = (r: CaseResult): string => r.variantId;
  const notes: string[] = [];
  if (run.mode !== 'compare') notes.push(`run ${run.id} was a bench run (variants shuffled per round); its rounds are paired by index all the same`);
  if (run.status === 'interrupted') notes.push('the run was interrupted: verdicts use the rounds that finished');

  const sections = candidates.map((candidate) => {
    const section: ArmComparison = { baseline: armInfo(baseline), candidate: armInfo(candidate), cases: [] };
    const pending: Pending[] = run.cases.map((c) => {
      const rb = resultFor.get(`${c.id}\u0000${baseline.id}`);
      const rc = resultFor.get(`${c.id}\u0000${candidate.id}`);
      const row: CaseComparison = { caseId: c.id };
      const why = unusableReason(label, rb, rc);
      if (why) return { row: { ...row, note: why } };
      const mb = roundMedians(rb);
      const mc = roundMedians(rc);
      const rounds = [...mb.keys()].filter((k) => mc.has(k)).sort((a, b) => a - b);
      const b = rounds.map((k) => mb.get(k)!);
      const cand = rounds.map((k) => mc.get(k)!);
      row.baseline = { median: median([...mb.values()]), rounds: mb.size };
      row.candidate = { median: median([...mc.values()]), rounds: mc.size };
      const db = digestOf(rb);
      const dc = digestOf(rc);
      if (db && dc && db !== dc) row.digests = { baseline: db, candidate: dc };
      if (!rounds.length) return { row: { ...row, note: 'no round in which both arms finished' } };
      if (!positive(b) || !positive(cand)) return { row: { ...row, note: 'a round median is 0 ns (below the clock resolution): no ratio' } };
      const lost = failedRounds(rb) + failedRounds(rc);
      if (lost) row.note = `${lost} failed round${lost === 1 ? '' : 's'}; compared ${rounds.length} pairs`;
      const raw = comparePaired(b, cand, options);
      return { row, raw, logRatios: b.map((x, i) => Math.log(cand[i]! / x)) };
    });
    return { section, pending };
  });
  finish(sections, options, 'paired');
  return {
    kind: 'paired',
    suite: run.suite,
    threshold: options.threshold,
    confidence: options.confidence,
    fdrAlpha: 1 - options.confidence,
    arms: run.variants.map((v) => armInfo(v)),
    sections: sections.map((s) => s.section),
    runs: [runSource(run, file)],
    notes,
    method: PAIRED_METHOD,
  };
}

export interface SavedRun {
  run: RunRecord;
  file: string;
  /** Said when the file was read leniently (another schema version). */
  note?: string;
}

/** Which variant of `a` is compared with which of `b`: same ids, or the only variant of each. */
export function pairVariants(a: RunRecord, b: RunRecord): [Variant, Variant][] | string {
  const inB = new Map(b.variants.map((v) => [v.id, v]));
  const common = a.variants.filter((v) => inB.has(v.id)).map((v): [Variant, Variant] => [v, inB.get(v.id)!]);
  if (common.length) return common;
  if (a.variants.length === 1 && b.variants.length === 1) return [[a.variants[0]!, b.variants[0]!]];
  const ids = (r: RunRecord): string => r.variants.map((v) => `"${v.id}"`).join(', ');
  return `the runs have no variant in common (${ids(a)} vs ${ids(b)}), and one of them has several, so rtbench cannot tell which to compare`;
}

function listSome(items: string[], max = 5): string {
  const shown = items.slice(0, max).map((s) => `"${s}"`).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/**
 * Two saved runs: for each variant present in both (or the only variant of
 * each), a's arm is the baseline and b's the candidate. Cases match by id.
 * Throws a plain Error (the caller makes it a usage error) when nothing matches.
 */
export function analyzeSavedRuns(a: SavedRun, b: SavedRun, options: AnalyzeOptions): ComparisonReport {
  const pairs = pairVariants(a.run, b.run);
  if (typeof pairs === 'string') throw new Error(pairs);
  const notes: string[] = [];
  for (const s of [a, b]) if (s.note) notes.push(s.note);
  const nameA = basename(a.file);
  const nameB = basename(b.file) === nameA ? b.file : basename(b.file);
  if (a.run.suite !== b.run.suite) notes.push(`different suites: ${nameA} is "${a.run.suite}", ${nameB} is "${b.run.suite}"; comparing the cases with the same id`);
  const idsB = new Set(b.run.cases.map((c) => c.id));
  const idsA = new Set(a.run.cases.map((c) => c.id));
  const cases = a.run.cases.filter((c) => idsB.has(c.id));
  const onlyA = a.run.cases.filter((c) => !idsB.has(c.id)).map((c) => c.id);
  const onlyB = b.run.cases.filter((c) => !idsA.has(c.id)).map((c) => c.id);
  if (onlyA.length) notes.push(`${onlyA.length} case${onlyA.length === 1 ? '' : 's'} only in ${nameA}: ${listSome(onlyA)}`);
  if (onlyB.length) notes.push(`${onlyB.length} case${onlyB.length === 1 ? '' : 's'} only in ${nameB}: ${listSome(onlyB)}`);
  if (!cases.length) throw new Error(`${nameA} and ${nameB} have no case in common (suites "${a.run.suite}" and "${b.run.suite}")`);
  if (a.run.host.cpuModel !== b.run.host.cpuModel || a.run.host.cores !== b.run.host.cores) {
    notes.push(`different hosts: ${a.run.host.cpuModel} (${a.run.host.cores} cores) vs ${b.run.host.cpuModel} (${b.run.host.cores} cores)`);
  }
  for (const [va, vb] of pairs) {
    if (va.binarySha256 && vb.binarySha256 && va.binarySha256 !== vb.binarySha256 && va.id === vb.id) {
      notes.push(`"${va.id}" is a different binary in the two runs (sha256 ${va.binarySha256.slice(0, 12)} vs ${vb.binarySha256.slice(0, 12)})`);
    }
  }
  notes.push('unpaired: the two runs were not interleaved, so a change in the machine between them counts as an effect; prefer `bench --compare` for a verdict on a change you can run now');

  const resultsA = new Map(a.run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const resultsB = new Map(b.run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const sections = pairs.map(([va, vb]) => {
    const la = va.id === vb.id ? `${va.id} (${nameA})` : va.id;
    const lb = va.id === vb.id ? `${vb.id} (${nameB})` : vb.id;
    const section: ArmComparison = { baseline: armInfo(va, la, a.file), candidate: armInfo(vb, lb, b.file), cases: [] };
    const label = (r: CaseResult): string => (r === resultsA.get(`${r.caseId}\u0000${va.id}`) ? la : lb);
    const pending: Pending[] = cases.map((c) => {
      const ra = resultsA.get(`${c.id}\u0000${va.id}`);
      const rb = resultsB.get(`${c.id}\u0000${vb.id}`);
      const row: CaseComparison = { caseId: c.id };
      const why = unusableReason(label, ra, rb);
      if (why) return { row: { ...row, note: why } };
      const x = [...roundMedians(ra).values()];
      const y = [...roundMedians(rb).values()];
      row.baseline = { median: median(x), rounds: x.length };
      row.candidate = { median: median(y), rounds: y.length };
      const da = digestOf(ra);
      const db = digestOf(rb);
      if (da && db && da !== db) row.digests = { baseline: da, candidate: db };
      if (!positive(x) || !positive(y)) return { row: { ...row, note: 'a round median is 0 ns (below the clock resolution): no ratio' } };
      const raw = compareUnpaired(x, y, options);
      return { row, raw, logTimes: { baseline: x.map(Math.log), candidate: y.map(Math.log) } };
    });
    return { section, pending };
  });
  finish(sections, options, 'unpaired');
  return {
    kind: 'unpaired',
    suite: a.run.suite === b.run.suite ? a.run.suite : `${a.run.suite} / ${b.run.suite}`,
    threshold: options.threshold,
    confidence: options.confidence,
    fdrAlpha: 1 - options.confidence,
    arms: sections.flatMap((s) => [s.section.baseline, s.section.candidate]),
    sections: sections.map((s) => s.section),
    runs: [runSource(a.run, a.file), runSource(b.run, b.file)],
    notes,
    method: UNPAIRED_METHOD,
  };
}

/** Cases slower (after FDR) by more than `limit` (0.05 = 5%): what --fail-on-regression fails on. */
export function regressions(report: ComparisonReport, limit: number): { section: ArmComparison; row: CaseComparison }[] {
  const out: { section: ArmComparison; row: CaseComparison }[] = [];
  for (const section of report.sections) {
    for (const row of section.cases) {
      const c = row.comparison;
      if (c && c.verdict === 'slower' && c.ratio > 1 + limit) out.push({ section, row });
    }
  }
  return out;
}
