/**
 * What a history shows of its runs in a format read by a person (the
 * terminal, markdown): the newest `last` runs, and every run a change point
 * is at or is compared with, since ten thousand runs of a CI fleet cannot be
 * read as rows. The change points and the FDR step stay those of every
 * comparison; the window says how many runs and comparisons it leaves out.
 * historyWindow cuts a whole view; historyViewOf with `last` makes the same
 * view without building the points it would leave out.
 */
import { counted } from '../text.ts';
import type { HistoryView } from './types.ts';

/** The runs a history shows by default in the terminal and markdown. */
export const DEFAULT_LAST_RUNS = 30;

/** The view showing the newest `last` runs and those of its change points; the view itself when that is every run. */
export function historyWindow(view: HistoryView, last: number): HistoryView {
  const first = view.runs.length - last;
  if (first <= 0) return view;
  const shown = new Set<number>();
  for (let i = first; i < view.runs.length; i++) shown.add(i);
  for (const hc of view.cases) {
    for (const s of hc.series) {
      for (const p of s.points) {
        if (!p.changePoint) continue;
        shown.add(p.run);
        if (p.changeFrom !== undefined) shown.add(p.changeFrom);
      }
    }
  }
  let comparisons = 0;
  const cases = view.cases.map((hc) => ({
    ...hc,
    series: hc.series.map((s) => ({
      ...s,
      points: s.points.filter((p) => {
        if (shown.has(p.run)) return true;
        if (p.change) comparisons++;
        return false;
      }),
    })),
  }));
  const runs = [...shown].sort((a, b) => a - b);
  return withWindowNote({ ...view, cases, window: { runs, last, comparisons } });
}

/** A windowed view (historyWindow, or historyViewOf's with `last`) with the note that says what it leaves out, last under it. */
export function withWindowNote(view: HistoryView): HistoryView {
  if (!view.window) return view;
  const { runs, last } = view.window;
  const hidden = view.runs.length - runs.length;
  const note = {
    level: 'info' as const,
    text: `${counted(hidden, 'run')} of ${view.runs.length} not shown: the newest ${last === 1 ? 'run is' : `${last} are`}, and each run a change point is at or compared with (the change points are over every comparison); --last N shows the newest N, --all every run`,
  };
  return { ...view, notes: [...view.notes, note] };
}
