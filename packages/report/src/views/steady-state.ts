/**
 * A cell's steady state, from its processes' classifications as the run saved
 * them (stats steady-state.ts): the mark a table gives it and the sentence
 * that explains it. Runs saved before classification: not classified.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { cellSteadyState, type SteadyStateClass } from '@rtbench/stats';

export interface SteadyStateCell {
  /** The marked class (warmed-late, slowdown, no-steady-state) enough of its processes share, or absent. */
  mark?: SteadyStateClass;
  /** "2 of 6 processes never settled within the warmup's maximum (3 s)…": what the mark means here. */
  text?: string;
  /** Processes by class, e.g. "flat 4, warmed 2 (at 30.1k calls, 1.2 s)". */
  summary: string;
  classified: number;
}

const WHAT: Record<SteadyStateClass, string> = {
  flat: 'flat',
  warmed: 'warmed',
  'warmed-late': 'still warming as sampling began (their samples stepped down)',
  slowdown: 'slower once steady than while warming, or their samples stepped up',
  'no-steady-state': 'never settled within the warmup’s maximum (sampled anyway)',
};

function compact(n: number): string {
  return n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(Math.round(n));
}

/** The cell's steady state, or undefined when none of its rounds was classified. */
export function steadyStateCell(result: CaseResult): SteadyStateCell | undefined {
  const states = result.rounds.map((r) => r.steadyState);
  const cell = cellSteadyState(states);
  if (!cell.classified) return undefined;
  const warmed = states.filter((s) => s?.class === 'warmed');
  const at = (pick: (s: { calls?: number; ms?: number }) => number | undefined): number[] => warmed.map((s) => pick(s!) ?? 0).sort((a, b) => a - b);
  const where = warmed.length ? ` (median at ${compact(at((s) => s.calls)[warmed.length >> 1]!)} calls, ${(at((s) => s.ms)[warmed.length >> 1]! / 1e3).toFixed(2)} s)` : '';
  const summary = (Object.keys(cell.counts) as SteadyStateClass[]).map((c) => `${c} ${cell.counts[c]}${c === 'warmed' ? where : ''}`).join(', ');
  if (!cell.mark) return { summary, classified: cell.classified };
  return { mark: cell.mark, text: `${cell.counts[cell.mark]} of ${cell.classified} processes ${WHAT[cell.mark]}`, summary, classified: cell.classified };
}

/** Whether any round of the run was timed in a runtime and none classified: a run saved before the steady-state rule. */
export function notClassified(run: RunRecord): boolean {
  let timed = false;
  for (const r of run.results) for (const round of r.rounds) {
    if (round.steadyState) return false;
    if (!round.counts && !round.load) timed = true;
  }
  return timed;
}
