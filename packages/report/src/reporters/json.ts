/**
 * The view as JSON: every number a renderer shows, plus the run it came from
 * with its raw samples (an unpaired comparison carries both runs). Each raw
 * record is written once: rows do not repeat the run's results.
 */
import type { View } from '../views/types.ts';
import type { Reporter } from './reporter.ts';

function plain(view: View): unknown {
  if (view.kind === 'comparison') return { ...view, run: undefined }; // `run` is runs[0].run
  if (view.kind === 'history' || view.kind === 'claims') return view; // points, not raw samples: a history reads many runs
  return { ...view, cases: view.cases.map((c) => ({ ...c, rows: c.rows.map(({ result: _result, ...row }) => row) })) };
}

export const jsonReporter: Reporter = {
  format: 'json',
  description: 'the view as JSON (statistics, ratios, verdicts, notes and the run with raw samples)',
  extension: 'json',
  escaping: 'json',
  render: (view) => `${JSON.stringify(plain(view))}\n`,
};
