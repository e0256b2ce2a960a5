/**
 * The comparison view: each candidate arm against the baseline, one section
 * per candidate, with verdicts, FDR q-values and a geometric mean. Built from
 * one run (paired by round) or from two saved runs (unpaired). Pure.
 */
import type { CaseResult, Metric, RunRecord, Variant } from '@rtbench/core/schema';
import { INSTRUCTIONS_PER_OP, metricOf, TIME_PER_OP } from '@rtbench/core/metric';
import { shownName, shownNames } from '../names.ts';
import { counted, baseName } from '../text.ts';
import { armInfo } from './arms.ts';
import { measuredBy } from './measured-by.ts';
import type { ArmComparison, CaseComparison, ComparisonView, RunViewOptions } from './types.ts';
import { attachWhere } from './where.ts';
import { loadSection } from './load.ts';
import { cpuPerRequestSection } from './cpu-per-request.ts';
import { requestSummary } from './request-summary.ts';
import { steadyStateCell } from './steady-state.ts';
import { attachWithoutWork } from './without-work.ts';
import { viewLevel } from './interval-level.ts';
import { adjustAll, designOfRun, DEFAULT_RATIO_OPTIONS, geomeanOf, hostsDiffer, isRequestResult, machineStatesDiffer, pairedCase, QUANTILE_METHOD, quantilePairs, type ComparedQuantile, type PairedCase, type RatioOptions, type SavedRun, unpairedCase } from '@rtbench/verdicts';

/** A view could not be made from these runs; the message is for the user. */
export class ViewError extends Error {
  override readonly name = 'ViewError';
}

function rowOf(caseId: string, label: string, pair: PairedCase, quantile?: ComparedQuantile): CaseComparison {
  return {
    caseId,
    label: quantile ? `${label} · ${quantile}` : label,
    ...(quantile ? { quantile } : {}),
    ...(pair.baseline ? { baseline: pair.baseline } : {}),
    ...(pair.candidate ? { candidate: pair.candidate } : {}),
    ...(pair.note ? { note: pair.note } : {}),
    ...(pair.digests ? { digests: pair.digests } : {}),
  };
}

/** A section's comparisons before the FDR step: per row its case, and for a request case's quantile rows which quantile. */
interface PendingSection {
  section: ArmComparison;
  caseIds: string[];
  pairs: PairedCase[];
  quantiles?: (ComparedQuantile | undefined)[];
}

/** FDR across every comparison in the view (quantile rows included), then each section's rows and geomean (of the cases' own ratios). */
function assemble(sections: PendingSection[], options: RatioOptions, pairing: 'paired' | 'unpaired', metrics?: Map<string, Metric>): { sections: ArmComparison[]; level: number } {
  const adjusted = adjustAll(sections.flatMap((s) => s.pairs), options);
  // One level a view: the geomeans are read where the ratios were adjusted to.
  const level = viewLevel(adjusted, options.confidence);
  const names = shownNames(sections.flatMap((s) => s.caseIds));
  let k = 0;
  const assembled = sections.map(({ section, caseIds, pairs, quantiles }) => {
    const cases = pairs.map((pair, i) => {
      const row = rowOf(caseIds[i]!, names.get(caseIds[i]!)!, pair, quantiles?.[i]);
      const metric = metrics?.get(caseIds[i]!);
      if (metric && metric !== TIME_PER_OP) row.metric = metric;
      const a = adjusted[k++];
      if (a) row.comparison = a;
      return row;
    });
    const geomean = geomeanOf(pairs.filter((_, i) => !quantiles?.[i]), { ...options, confidence: level }, pairing);
    return { ...section, cases, ...(geomean ? { geomean } : {}) };
  });
  return { sections: assembled, level };
}

/** A candidate's section: every case's ratio, and after a request case's its p50 and p99 (verdicts' request-quantiles.ts). */
function withQuantiles(run: RunRecord, baseline: Variant, candidate: Variant, resultFor: Map<string, CaseResult>, options: RatioOptions): PendingSection {
  const out: PendingSection = { section: { baseline: armInfo(baseline), candidate: armInfo(candidate), cases: [] }, caseIds: [], pairs: [], quantiles: [] };
  for (const c of run.cases) {
    const [b, k] = [resultFor.get(`${c.id}\u0000${baseline.id}`), resultFor.get(`${c.id}\u0000${candidate.id}`)];
    const pair = pairedCase(b, k, options, undefined, metricOf(run, c.id));
    const rows = [{ pair, quantile: undefined as ComparedQuantile | undefined }];
    // A case's quantile rows did the work the case did: different work on it is different work on each.
    if (isRequestResult(b) && isRequestResult(k)) rows.push(...quantilePairs(b, k, options).map((q) => (pair.digests ? { ...q, pair: { ...q.pair, digests: pair.digests } } : q)));
    for (const row of rows) {
      out.caseIds.push(c.id);
      out.pairs.push(row.pair);
      out.quantiles!.push(row.quantile);
    }
  }
  return out;
}

/**
 * One run with two or more variants: each after the first against the first,
 * paired by round. Throws ViewError when there is nothing to compare.
 */
export function pairedComparisonView(run: RunRecord, options: RunViewOptions = {}): ComparisonView {
  const ratioOptions = { ...DEFAULT_RATIO_OPTIONS, design: designOfRun(run.options), ...options };
  const [baseline, ...candidates] = run.variants;
  if (!baseline || candidates.length === 0) {
    throw new ViewError(`${options.file ?? `run ${run.id}`} has one variant ("${baseline?.id}"); give two runs to compare them, or one run made with --compare`);
  }
  const resultFor = new Map(run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const notes = [...(options.notes ?? [])];
  if (run.mode !== 'compare') notes.push(`run ${run.id} was a bench run (variants shuffled per round); its rounds are paired by index all the same`);
  if (run.status === 'interrupted') notes.push('the run was interrupted: verdicts use the rounds that finished');

  const sections = candidates.map((candidate) => withQuantiles(run, baseline, candidate, resultFor, ratioOptions));
  const { sections: assembled, level } = assemble(sections, ratioOptions, 'paired', new Map(run.cases.map((c) => [c.id, metricOf(run, c.id)])));
  for (const section of assembled) {
    const results = (caseId: string): [CaseResult | undefined, CaseResult | undefined] => [resultFor.get(`${caseId}\u0000${section.baseline.id}`), resultFor.get(`${caseId}\u0000${section.candidate.id}`)];
    attachWhere(section, results);
    attachWithoutWork(section, results);
  }
  // Instruction counts also give cases a metric; the note is for host-timed cases.
  if (run.cases.some((c) => c.metric && c.metric.unit !== INSTRUCTIONS_PER_OP.unit)) notes.push(`timed by the host: each round is one fresh process timed to its first answer, or one load run against a fresh server; ratios are of times, per start or per request${run.cases.some((c) => c.metric?.unit === 'switches') ? ', and of context switches per request (wake-ups, preemptions)' : ''}`);
  // Adaptive runs: how precise each candidate's ratio got, and why rounds stopped.
  for (const section of assembled) {
    for (const row of section.cases) {
      const precision = resultFor.get(`${row.caseId}\u0000${section.candidate.id}`)?.precision;
      if (precision) row.precision = precision;
      const baselineResult = resultFor.get(`${row.caseId}\u0000${section.baseline.id}`);
      const candidateResult = resultFor.get(`${row.caseId}\u0000${section.candidate.id}`);
      const baselineSteady = baselineResult && steadyStateCell(baselineResult);
      const candidateSteady = candidateResult && steadyStateCell(candidateResult);
      if (baselineSteady || candidateSteady) row.steady = { ...(baselineSteady ? { baseline: baselineSteady } : {}), ...(candidateSteady ? { candidate: candidateSteady } : {}) };
    }
  }
  if (assembled.some((s) => s.cases.some((row) => row.quantile))) notes.push(`CPU per request ${QUANTILE_METHOD}; they share the view's false-discovery step`);
  // As a bench run does: the brief lines first, the tables behind them at their level.
  const brief = requestSummary(run, ratioOptions)?.summary;
  const cpuPerRequest = cpuPerRequestSection(run, options.cpuLimitMs, brief?.confidence);
  const load = loadSection(run);
  return {
    kind: 'comparison',
    pairing: 'paired',
    ...(cpuPerRequest ? { cpuPerRequest } : {}),
    ...(cpuPerRequest && brief ? { requestSummary: brief } : {}),
    ...(load ? { load } : {}),
    run,
    runs: [{ run, ...(options.file ? { file: options.file } : {}) }],
    suite: run.suite,
    threshold: ratioOptions.threshold,
    confidence: ratioOptions.confidence,
    level,
    fdrAlpha: 1 - ratioOptions.confidence,
    arms: run.variants.map((v) => armInfo(v)),
    sections: assembled,
    notes,
    method: measuredBy(run.options).paired,
  };
}

/** Which variant of `a` is compared with which of `b`: same ids, or the only variant of each. */
function pairVariants(a: RunRecord, b: RunRecord): [Variant, Variant][] | string {
  const inB = new Map(b.variants.map((v) => [v.id, v]));
  const common = a.variants.filter((v) => inB.has(v.id)).map((v): [Variant, Variant] => [v, inB.get(v.id)!]);
  if (common.length) return common;
  if (a.variants.length === 1 && b.variants.length === 1) return [[a.variants[0]!, b.variants[0]!]];
  const ids = (r: RunRecord): string => r.variants.map((v) => `"${v.id}"`).join(', ');
  return `the runs have no variant in common (${ids(a)} vs ${ids(b)}), and one of them has several, so rtbench cannot tell which to compare`;
}

function listSome(items: string[], max = 5): string {
  const shown = items.slice(0, max).map((s) => `"${shownName(s)}"`).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/**
 * Two saved runs: for each variant present in both (or the only variant of
 * each), a's arm is the baseline and b's the candidate. Cases match by id.
 * Throws ViewError when nothing matches.
 */
export function unpairedComparisonView(a: SavedRun, b: SavedRun, options: Partial<RatioOptions> = {}): ComparisonView {
  const ratioOptions = { ...DEFAULT_RATIO_OPTIONS, ...options };
  const pairs = pairVariants(a.run, b.run);
  if (typeof pairs === 'string') throw new ViewError(pairs);
  const notes: string[] = [];
  for (const s of [a, b]) notes.push(...(s.notes ?? []));
  const nameA = baseName(a.file);
  const nameB = baseName(b.file) === nameA ? b.file : baseName(b.file);
  if (a.run.suite !== b.run.suite) notes.push(`different suites: ${nameA} is "${a.run.suite}", ${nameB} is "${b.run.suite}"; comparing the cases with the same id`);
  const idsB = new Set(b.run.cases.map((c) => c.id));
  const idsA = new Set(a.run.cases.map((c) => c.id));
  const cases = a.run.cases.filter((c) => idsB.has(c.id));
  const onlyA = a.run.cases.filter((c) => !idsB.has(c.id)).map((c) => c.id);
  const onlyB = b.run.cases.filter((c) => !idsA.has(c.id)).map((c) => c.id);
  if (onlyA.length) notes.push(`${counted(onlyA.length, 'case')} only in ${nameA}: ${listSome(onlyA)}`);
  if (onlyB.length) notes.push(`${counted(onlyB.length, 'case')} only in ${nameB}: ${listSome(onlyB)}`);
  if (!cases.length) throw new ViewError(`${nameA} and ${nameB} have no case in common (suites "${a.run.suite}" and "${b.run.suite}")`);
  const platformA = `${a.run.host.os}-${a.run.host.arch}`;
  const platformB = `${b.run.host.os}-${b.run.host.arch}`;
  // Another platform is another build of each runtime (its own package) on another CPU: the ratio is theirs as much as the change's.
  if (platformA !== platformB) notes.push(`different platforms: ${nameA} ran on ${platformA}, ${nameB} on ${platformB}; each runtime is another build there`);
  const hosts = hostsDiffer(a.run.host, b.run.host);
  notes.push(...hosts);
  // Load and steal are compared between runs of one machine only: on another machine, everything differs anyway.
  if (!hosts.some((h) => h.startsWith('different hosts'))) {
    const states = machineStatesDiffer(a.run.host.machine?.points, b.run.host.machine?.points, a.run.host.cores, [nameA, nameB]);
    if (states) notes.push(states);
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
    const label = (r: CaseResult): string => (r === resultsA.get(`${r.caseId}\u0000${va.id}`) ? la : lb);
    return {
      section: { baseline: armInfo(va, la, a.file), candidate: armInfo(vb, lb, b.file), cases: [] },
      caseIds: cases.map((c) => c.id),
      pairs: cases.map((c) => unpairedCase(resultsA.get(`${c.id}\u0000${va.id}`), resultsB.get(`${c.id}\u0000${vb.id}`), ratioOptions, label, metricOf(a.run, c.id))),
    };
  });
  const { sections: assembled, level } = assemble(sections, ratioOptions, 'unpaired', new Map(cases.map((c) => [c.id, metricOf(a.run, c.id)])));
  for (const section of assembled) {
    const results = (caseId: string): [CaseResult | undefined, CaseResult | undefined] => [resultsA.get(`${caseId}\u0000${section.baseline.id}`), resultsB.get(`${caseId}\u0000${section.candidate.id}`)];
    attachWhere(section, results);
    attachWithoutWork(section, results);
  }
  return {
    kind: 'comparison',
    pairing: 'unpaired',
    run: a.run,
    runs: [
      { run: a.run, file: a.file },
      { run: b.run, file: b.file },
    ],
    suite: a.run.suite === b.run.suite ? a.run.suite : `${a.run.suite} / ${b.run.suite}`,
    threshold: ratioOptions.threshold,
    confidence: ratioOptions.confidence,
    level,
    fdrAlpha: 1 - ratioOptions.confidence,
    arms: assembled.flatMap((s) => [s.baseline, s.candidate]),
    sections: assembled,
    notes,
    // Two runs of one measurer kind are compared as that kind's; of two kinds, as times.
    // Runs measured alike say it alike; runs of two measurers get the words that hold for both.
    method: sameUnpaired(a.run, b.run),
  };
}

/** The unpaired method of two runs: their measurer's words when they say the same, else words that hold for any. */
function sameUnpaired(a: RunRecord, b: RunRecord): string {
  const [x, y] = [measuredBy(a.options).unpaired, measuredBy(b.options).unpaired];
  return x === y ? x : measuredBy({ ...a.options, measuredBy: undefined }).unpaired;
}
