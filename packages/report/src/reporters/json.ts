/**
 * The view as JSON: every number a renderer shows, plus the run it came from
 * with its raw samples (an unpaired comparison carries both runs). Each raw
 * record is written once: rows do not repeat the run's results.
 */
import { releasesJson } from './releases.ts';
import { bisectJson } from './bisect.ts';
import { byKind, partsByKind, type Reporter } from './reporter.ts';
import { jsonParts } from './json-parts.ts';
import type { HistoryView } from '../views/types.ts';

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** A history's JSON opened down to its points (view, cases, a case, its series, a series, its points): one point a part. */
function* historyParts(view: HistoryView): Generator<string> {
  yield* jsonParts(view, 6);
  yield '\n';
}

export const jsonReporter: Reporter = {
  format: 'json',
  description: 'the view as JSON (statistics, ratios, verdicts, notes and the run with raw samples)',
  extension: 'json',
  escaping: 'json',
  render: byKind({
    bench: (view) => json({ ...view, cases: view.cases.map((c) => ({ ...c, rows: c.rows.map(({ result: _result, ...row }) => row) })) }),
    comparison: (view) => json({ ...view, run: undefined }), // `run` is runs[0].run
    // Points, not raw samples: a history reads many runs.
    history: json,
    claims: json,
    releases: releasesJson,
    bisect: bisectJson,
  }),
  parts: partsByKind({ history: historyParts }),
};
