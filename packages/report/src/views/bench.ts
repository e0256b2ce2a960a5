/**
 * The bench view: per case, each variant's statistics and its paired ratio
 * against the baseline (the first variant listed that ran). Pure: a run in,
 * plain data out.
 */
import { loadSection, measurementId } from './load.ts';
import { requestSummary } from './request-summary.ts';
import { cpuPerRequestSection } from './cpu-per-request.ts';
import type { CaseResult, CaseStats, Metric, RunRecord } from '@rtbench/core/schema';
import { statsSchema } from '@rtbench/core/stats-schema';
import { asCost, metricOf, TIME_PER_OP } from '@rtbench/core/metric';
import { median, MIN_ROUNDS_FOR_BOOTSTRAP, readByMean, summarizeArm } from '@rtbench/stats';
import { atLevel, viewLevel } from './interval-level.ts';
import { lockstepOf, pairable, requestsOf } from '@rtbench/measurer-records/readers';
import { formatMetric } from '../format.ts';
import { shownNames } from '../names.ts';
import { counted, firstLine } from '../text.ts';
import { armInfo } from './arms.ts';
import { differentWorkText, sameWorkMaskedText } from './different-work.ts';
import { measuredBy } from './measured-by.ts';
import type { BenchCase, BenchRow, BenchView, Note, RunViewOptions } from './types.ts';
import { notClassified, steadyStateCell } from './steady-state.ts';
import { withoutWorkText } from './without-work.ts';
import { adjustAll, designOfRun, DEFAULT_RATIO_OPTIONS, geomeanOf, pairedCase, summarizeMachine, type PairedCase, type RatioOptions } from '@rtbench/verdicts';

/** Mean / median above this is worth a line under the row. */
const SKEW_WARNING = 1.5;

/** What the median and its interval are, counted in processes (the fewest any row had). */
function statsMethod(processes: number): string {
  return processes >= MIN_ROUNDS_FOR_BOOTSTRAP
    ? `median: the typical process's median (a process's rounds pooled); p25–p75: spread of all samples; CI: the median's interval, a bootstrap over processes`
    : `median of all samples from ${processes} process${processes === 1 ? '' : 'es'}; p25–p75: their spread; no CI: it needs ${MIN_ROUNDS_FOR_BOOTSTRAP} or more processes (rounds that share a process count once)`;
}

/**
 * A row's statistics with the process as the unit: as the run recorded them
 * when they were computed that way (they count `processes`), else recomputed
 * from the samples, so a saved run of an earlier schedule gets the same
 * analysis where its record says which process served each round. A 0
 * median (below the clock) has none, as in the run.
 */
export function rowStats(result: CaseResult): CaseStats | undefined {
  if (result.stats?.processes !== undefined) return result.stats;
  // A request round saved with phases is read on its steady requests alone (saved-runs computeStats): none, no figure.
  if (!result.rounds.some((r) => r.samples.length) || result.rounds.some((r) => requestsOf(r)?.phases)) return undefined;
  const parsed = statsSchema.safeParse(summarizeArm(result.rounds.map(pairable)));
  return parsed.success && parsed.data.median > 0 ? parsed.data : result.stats;
}

/**
 * The medians read one way and the paired ratio the other, each beyond the
 * threshold, and the medians' ratio outside the ratio's interval: the ratio
 * comes from samples taken in turn, the medians from each side alone, and
 * they can differ when a set's samples fall into modes.
 */
function oppositeText(row: BenchRow, base: CaseStats | undefined, threshold: number, metric: Metric): string | undefined {
  const r = row.relative;
  if (!r || !base || !row.stats || !(base.median > 0 && row.stats.median > 0)) return undefined;
  const tau = Math.log1p(threshold);
  // The paired ratio is of costs (requests/s as time per request): the medians' ratio is read the same way.
  const medians = asCost(row.stats.median, metric) / asCost(base.median, metric);
  const byMedians = Math.log(medians);
  const paired = Math.log(r.ratio);
  const outside = medians < r.ci[0] || medians > r.ci[1];
  if (!(byMedians * paired < 0 && Math.abs(byMedians) > tau && Math.abs(paired) > tau && outside)) return undefined;
  return `the medians read ${medians.toFixed(2)}× while the paired ratio reads ${r.ratio.toFixed(2)}× [${r.ci[0].toFixed(2)}–${r.ci[1].toFixed(2)}]: the ratio pairs samples taken in turn, and when a set's samples fall into modes (see the distribution) the two can point opposite ways`;
}

/** Said of a cell read by its processes' means: samples long enough to hold the case's collections would pass their cap. */
const BY_COLLECTION_TEXT =
  'its samples, at their longest, still hold a collection or none (bimodal by collection): each process is read by the mean of its samples, and its ratio by the means too';

function skewText(s: CaseStats, metric: Metric): string | undefined {
  const ratio = s.mean / s.median;
  return ratio > SKEW_WARNING ? `mean ${formatMetric(s.mean, metric)} is ${ratio.toFixed(1)}× the median: rare slow samples (GC?) the median hides` : undefined;
}

/** "2 modes: 152 µs ×12, 251 µs ×18" when the process medians form several clusters. */
function modesText(s: CaseStats, metric: Metric): string | undefined {
  const modes = s.modes?.modes;
  if (!modes || modes.length < 2) return undefined;
  return `${modes.length} modes: ${modes.map((m) => `${formatMetric(m.center, metric)} ×${m.count}`).join(', ')}`;
}

function noteOf(result: CaseResult, stats: CaseStats | undefined): string | undefined {
  // Warnings are said under the table (runNotes), not in the row.
  const last = result.failures.filter((f) => f.kind !== 'warning').at(-1);
  if (result.status === 'unsupported') return `unsupported: ${last?.message ?? ''}`;
  if (last) return `${last.kind}: ${firstLine(last.message)}`;
  return result.rounds.length && !stats ? noStatisticsText(result) : undefined;
}

/** Why a result with rounds has no statistics, from its samples. */
function noStatisticsText(result: CaseResult): string {
  const samples = result.rounds.flatMap((r) => r.samples);
  if (result.rounds.every((r) => requestsOf(r)?.phases && r.samples.length < 2)) return 'no statistics: every round kept its first request alone (the rest got no response in time or were not sent), and the figure is read from the requests after it';
  if (median(samples) === 0) return 'no statistics: the median sample is 0 ns (below the clock resolution)';
  // Past about 1e154 a square overflows to Infinity: no spread, no interval, and no clock reads such a figure.
  return `no statistics: its samples cannot be summarized (the largest is ${samples.reduce((a, b) => Math.max(a, b))}, past what their squares hold)`;
}

/** Notes under the table: failures, unavailable variants, different work. */
export function runNotes(run: RunRecord): Note[] {
  const notes: Note[] = [];
  const names = shownNames(run.cases.map((c) => c.id));
  const shown = (caseId: string): string => names.get(caseId) ?? caseId;
  for (const m of run.digestMismatches) {
    notes.push({ level: 'error', text: `different work on "${shown(m.caseId)}": ${differentWorkText(m.digests, m.where)} — results are not comparable` });
  }
  for (const p of run.sameWorkMasked ?? []) notes.push({ level: 'info', text: `"${shown(p.caseId)}": ${sameWorkMaskedText(p)}` });
  for (const m of run.digestsRounded ?? []) {
    notes.push({ level: 'info', text: `"${shown(m.caseId)}": the variants' results agree to ${m.digits} significant digits, not bit for bit (floating-point results differ in their last digits); compared with that tolerance` });
  }
  for (const v of run.variants) if (v.unavailable) notes.push({ level: 'error', text: `${v.id} did not run: ${v.unavailable}` });
  for (const [variant, emulator] of emulatedVariants(run)) {
    notes.push({ level: 'warning', text: `${variant} ran under ${emulator}: its times are the emulator's, so its figures and ratios show behaviour only` });
  }
  // One note per failure, however many variants failed alike: the variants named together, the message once.
  const failures = new Map<string, { variants: string[]; text: (variants: string) => string }>();
  for (const r of run.results) {
    for (const f of r.failures) {
      if (f.kind === 'unsupported' || f.kind === 'runtime-unavailable' || f.kind === 'warning') continue;
      const tail = (f.stderr ?? '').trim().split('\n').slice(-4).join('\n    ');
      const what = `${f.kind}${f.phase ? ` in ${f.phase}` : ''}: ${f.message}${tail ? `\n    ${tail}` : ''}`;
      const key = JSON.stringify([r.caseId, what]);
      const seen = failures.get(key);
      if (seen) seen.variants.push(r.variantId);
      else failures.set(key, { variants: [r.variantId], text: (variants) => `${variants} · ${shown(r.caseId)}: ${what}` });
    }
  }
  for (const { variants, text } of failures.values()) notes.push({ level: 'error', text: text(variants.join(', ')) });
  notes.push(...warningNotes(run, shown));
  if (run.status === 'interrupted') notes.push({ level: 'warning', text: 'the run was interrupted: the figures use the rounds that finished' });
  const machine = run.host.machine && summarizeMachine(run.host.machine.points, run.host.cores);
  if (machine?.changed) notes.push({ level: 'warning', text: machine.changed });
  else if (machine?.shared) notes.push({ level: 'info', text: machine.shared });
  // A case with one finished process in all has no second digest: its work was not compared with anything.
  const unchecked = run.cases.filter((c) => run.results.reduce((n, r) => n + (r.caseId === c.id ? r.rounds.length : 0), 0) === 1).map((c) => c.id);
  if (unchecked.length && unchecked.length === run.cases.length) {
    notes.push({ level: 'warning', text: 'the work was not cross-checked: each case has one digest (one round on one runtime), so there was nothing to compare it with; run ≥ 2 rounds or runtimes' });
  } else if (unchecked.length) {
    notes.push({ level: 'warning', text: `the work was not cross-checked on ${counted(unchecked.length, 'case')} with a single digest: ${unchecked.slice(0, 5).map(shown).join(', ')}${unchecked.length > 5 ? ', …' : ''}` });
  }
  return notes;
}

/** Variants whose processes the host found under a user-mode emulator, with the emulator's name. */
function emulatedVariants(run: RunRecord): Map<string, string> {
  const found = new Map<string, string>();
  for (const r of run.results) {
    const emulator = r.rounds.map(lockstepOf).find((lockstep) => lockstep?.emulator)?.emulator;
    if (emulator && !found.has(r.variantId)) found.set(r.variantId, emulator);
  }
  return found;
}

/**
 * One note per warning and the variants that gave it, naming the cases it
 * holds for: a brought file whose cases all return nothing says so once,
 * not once a case; a warning of every case of the run says "every case".
 * The cases that are metrics of one measurement (a `metric` parameter: a
 * load run's requests/s, latencies, CPU per request) share its rounds and
 * so its warnings: said once for the measurement, not once per metric.
 */
function warningNotes(run: RunRecord, shown: (caseId: string) => string): Note[] {
  const cases = new Map(run.cases.map((c) => [c.id, c]));
  const subjectOf = (id: string): string => {
    const c = cases.get(id);
    return c && c.params.metric !== undefined ? measurementId(c) : shown(id);
  };
  const variantsBy = new Map<string, { subject: string; message: string; variants: string[] }>();
  for (const r of run.results) {
    for (const f of r.failures) {
      if (f.kind !== 'warning') continue;
      const subject = subjectOf(r.caseId);
      const key = `${subject}\u0000${f.message}`;
      const entry = variantsBy.get(key) ?? { subject, message: f.message, variants: [] };
      if (!entry.variants.includes(r.variantId)) entry.variants.push(r.variantId);
      variantsBy.set(key, entry);
    }
  }
  const subjectsBy = new Map<string, { message: string; variants: readonly string[]; subjects: string[] }>();
  for (const w of variantsBy.values()) {
    const key = `${w.variants.join('\u0000')}\u0001${w.message}`;
    const entry = subjectsBy.get(key) ?? { message: w.message, variants: w.variants, subjects: [] };
    entry.subjects.push(w.subject);
    subjectsBy.set(key, entry);
  }
  const everySubject = new Set(run.cases.map((c) => subjectOf(c.id))).size;
  const who = (subjects: readonly string[], variants: string): string => {
    if (subjects.length === 1) return `${subjects[0]} (${variants})`;
    const count = counted(subjects.length, 'case');
    return subjects.length === everySubject ? `every case (${count}; ${variants})` : `${subjects.join('; ')} (${count}; ${variants})`;
  };
  return [...subjectsBy.values()].map((w) => ({ level: 'warning' as const, text: `${who(w.subjects, w.variants.join(', '))}: ${w.message}` }));
}

export function benchView(run: RunRecord, options: RunViewOptions = {}): BenchView {
  const ratioOptions = { ...DEFAULT_RATIO_OPTIONS, design: designOfRun(run.options), ...options };
  const resultFor = new Map(run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const baselineVariant = run.variants.find((v) => !v.unavailable) ?? run.variants[0];
  const mismatched = new Map(run.digestMismatches.map((m) => [m.caseId, m.digests]));
  const whereDiffers = new Map(run.digestMismatches.flatMap((m) => (m.where ? [[m.caseId, m.where] as const] : [])));
  const names = shownNames(run.cases.map((c) => c.id));

  // Pair first, then one FDR step over every ratio in the table.
  const pending: { row: BenchRow; pair?: PairedCase }[] = [];
  const cases: BenchCase[] = run.cases.map((c) => {
    const rows: BenchRow[] = [];
    const metric = metricOf(run, c.id);
    const baseResult = baselineVariant ? resultFor.get(`${c.id}\u0000${baselineVariant.id}`) : undefined;
    // Once per case: for an older run this is a bootstrap, not a field read.
    const baseStats = baseResult ? rowStats(baseResult) : undefined;
    for (const v of run.variants) {
      const result = resultFor.get(`${c.id}\u0000${v.id}`);
      if (!result) continue;
      const isBaseline = v.id === baselineVariant?.id;
      const stats = rowStats(result);
      const note = noteOf(result, stats);
      const row: BenchRow = { caseId: c.id, variantId: v.id, ...(metric !== TIME_PER_OP ? { metric } : {}), result, status: result.status, isBaseline };
      if (stats) {
        row.stats = stats;
        // A cell read by its means holds its slow samples in its figure: the skew line would say the opposite.
        if (readByMean(result.rounds)) row.byCollection = BY_COLLECTION_TEXT;
        else {
          const skew = skewText(stats, metric);
          if (skew) row.skew = skew;
        }
        const modes = modesText(stats, metric);
        if (modes) row.modes = modes;
        const steady = steadyStateCell(result);
        if (steady) row.steady = steady;
      }
      if (note) row.note = note;
      const without = withoutWorkText(result);
      if (without) row.withoutWork = without;
      if (result.precision) row.precision = result.precision;
      if (!isBaseline && stats && baseResult && baseStats) {
        const pair = pairedCase(baseResult, result, ratioOptions, undefined, metric);
        if (!pair.raw && pair.note) row.relativeNote = pair.note;
        pending.push({ row, pair });
      }
      rows.push(row);
    }
    // Different work across variants, or across one variant's own rounds.
    const ownRounds = rows.filter((r) => r.result.failures.some((f) => f.kind === 'digest-mismatch'));
    const digests = mismatched.get(c.id) ?? (ownRounds.length ? Object.fromEntries(ownRounds.map((r) => [r.variantId, [...new Set(r.result.rounds.map((x) => x.digest.hash))].join(' ≠ ')])) : undefined);
    return { caseId: c.id, label: names.get(c.id) ?? c.id, name: c.name, ...(c.group ? { group: c.group } : {}), params: c.params, rows, ...(digests ? { digestMismatch: digests } : {}), ...(whereDiffers.has(c.id) ? { workDifference: whereDiffers.get(c.id)! } : {}) };
  });
  // A request run's table is adjusted in one family with its summary's ratios: --explain shows both on one screen.
  const family = requestSummary(run, ratioOptions, pending.map((p) => p.pair!));
  const cpuPerRequest = cpuPerRequestSection(run, options.cpuLimitMs, family?.summary.confidence);
  const summary = cpuPerRequest ? family?.summary : undefined;
  const adjusted = summary ? family!.alongside : adjustAll(pending.map((p) => p.pair!), ratioOptions);
  pending.forEach((p, i) => {
    const a = adjusted[i];
    if (a) p.row.relative = a;
  });
  for (const c of cases) {
    const baseRow = c.rows.find((r) => r.isBaseline);
    for (const row of c.rows) {
      const opposite = oppositeText(row, baseRow?.stats, ratioOptions.threshold, metricOf(run, c.caseId));
      if (opposite) row.opposite = opposite;
      // A ratio to or from a case without work compares empty calls: its interval is shown, no word.
      if (!row.isBaseline && (row.withoutWork || baseRow?.withoutWork)) row.noVerdictWord = true;
    }
  }

  // One level a table: the medians' intervals and the geomeans are read where the ratios' were adjusted to.
  const level = viewLevel(adjusted, ratioOptions.confidence);
  for (const c of cases) for (const row of c.rows) if (row.stats) row.stats = atLevel(row.stats, level);
  const geomeans = run.variants.flatMap((v) => {
    const pairs = pending.filter((p) => p.row.variantId === v.id).map((p) => p.pair!);
    const g = geomeanOf(pairs, { ...ratioOptions, confidence: level }, 'paired');
    return g ? [{ variantId: v.id, ...g }] : [];
  });
  const variants = run.variants.map((v) => armInfo(v));
  const methods = measuredBy(run.options);
  const load = loadSection(run);
  return {
    kind: 'bench',
    run,
    ...(options.file ? { file: options.file } : {}),
    suite: run.suite,
    baseline: baselineVariant ? armInfo(baselineVariant) : variants[0]!,
    variants,
    cases,
    threshold: ratioOptions.threshold,
    confidence: ratioOptions.confidence,
    level,
    fdrAlpha: 1 - ratioOptions.confidence,
    method: methods.paired,
    statsMethod: methods.stats ?? statsMethod(Math.min(...cases.flatMap((c) => c.rows.flatMap((r) => (r.stats ? [r.stats.processes ?? r.stats.rounds] : []))))),
    notes: [...(options.notes ?? []).map((text): Note => ({ level: 'warning', text })), ...runNotes(run)],
    ...(notClassified(run) ? { notClassified: true } : {}),
    ...(geomeans.length ? { geomeans } : {}),
    ...(run.git ? { git: run.git } : {}),
    ...(cpuPerRequest ? { cpuPerRequest } : {}),
    ...(summary ? { requestSummary: summary } : {}),
    ...(load ? { load } : {}),
  };
}
