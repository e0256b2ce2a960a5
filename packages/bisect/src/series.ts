/**
 * The releases a bisect measured, drawn as a series with the history's
 * reporters (terminal table and sparkline, HTML line chart): one point per
 * release, in release order, named by the release, each from the step run
 * that measured it with the most rounds (its figure is that run's median of
 * process medians). Neighbouring points come from different runs, so a
 * history's change marks between them would be unpaired verdicts at a level
 * of their own beside the bisect's paired ones: the series keeps the figures
 * alone, their intervals read at the bisect's level (one level a screen).
 */
import { historyView, type HistoryPoint, type HistoryView } from '@rtbench/report/views';
import { BISECT_DEFAULTS } from './defaults.ts';
import type { RunRecord } from '@rtbench/core/schema';
import { readCampaignRun } from '@rtbench/campaign';
import { computeStats } from '@rtbench/saved-runs';
import { UsageError } from '@rtbench/core/usage-error';
import { releaseVariant, type ReleaseRange } from '@rtbench/arms';
import { STATE_FILE, type SavedStep } from './state.ts';
import type { HistoryInput } from '@rtbench/verdicts';

/** One derived run per release: only its result for the case, under the runtime's name, so all releases form one series. */
export function releaseSeriesInputs(range: ReleaseRange, dir: string, steps: readonly SavedStep[], caseId: string): HistoryInput[] {
  const runs = new Map<string, RunRecord | undefined>();
  // Read as the steps were replayed: inside the folder, as saved runs.
  const load = (file: string): RunRecord | undefined => {
    if (!runs.has(file)) runs.set(file, readCampaignRun(dir, file, STATE_FILE, (message) => new UsageError(message))?.run);
    return runs.get(file);
  };
  const inputs: HistoryInput[] = [];
  for (const tag of range.tags) {
    const id = releaseVariant(range, tag).id;
    let best: { run: RunRecord; file: string; rounds: number } | undefined;
    for (const s of steps) {
      if (!s.run || (s.older !== tag && s.newer !== tag)) continue;
      const run = load(s.run);
      if (!run) continue;
      const rounds = run.results.find((r) => r.caseId === caseId && r.variantId === id)?.rounds.filter((r) => r.samples.length).length ?? 0;
      if (rounds > (best?.rounds ?? 0)) best = { run, file: s.run, rounds };
    }
    if (!best) continue;
    const series = range.runtime + (range.extra.length ? ` ${range.extra.join(' ')}` : '');
    const variant = best.run.variants.find((v) => v.id === id)!;
    const derived: RunRecord = {
      ...best.run,
      id: `${best.run.id}:${tag}`,
      variants: [{ ...variant, id: series }],
      cases: best.run.cases.filter((c) => c.id === caseId),
      results: best.run.results.filter((r) => r.caseId === caseId && r.variantId === id).map((r) => ({ ...r, variantId: series, stats: undefined })),
      digestMismatches: [],
    };
    computeStats(derived);
    inputs.push({ run: derived, file: best.file, label: `${range.runtime}@${tag}` });
  }
  return inputs;
}

export function releaseSeriesView(inputs: readonly HistoryInput[], threshold: number): HistoryView {
  const view = historyView(inputs, { threshold, confidence: BISECT_DEFAULTS.confidence, order: { by: 'given', reason: 'by release, oldest first' } });
  const figures = ({ change: _change, changeFrom: _from, changePoint: _point, ...figure }: HistoryPoint): HistoryPoint => figure;
  return { ...view, cases: view.cases.map((hc) => ({ ...hc, series: hc.series.map((s) => ({ ...s, points: s.points.map(figures) })) })) };
}
