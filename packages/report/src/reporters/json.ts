/**
 * The view as JSON: every number a renderer shows, plus the run it came from
 * with its raw samples (an unpaired comparison carries both runs). Each raw
 * record is written once: rows do not repeat the run's results.
 */
import { releasesJson } from './releases.ts';
import { bisectJson } from './bisect.ts';
import { byKind, partsByKind, type Reporter } from './reporter.ts';
import { jsonParts, writtenEntries } from './json-parts.ts';
import type { HistoryPoint, HistoryView } from '../views/types.ts';

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** A history's JSON opened down to its points (view, cases, a case, its series, a series, its points): one point a part. */
function* historyParts(view: HistoryView): Generator<string> {
  yield* jsonParts(view, 6);
  yield '\n';
}

/** An object's JSON in parts as jsonParts writes it, `open` writing the values of the keys it answers for (undefined: jsonParts at `depth`). */
async function* objectParts(value: object, depth: number, open: (key: string, item: unknown) => AsyncIterable<string> | undefined): AsyncGenerator<string> {
  yield '{';
  for (const [head, key, item] of writtenEntries(value)) {
    yield head;
    yield* open(key, item) ?? jsonParts(item, depth - 1);
  }
  yield '}';
}

/** How many points one part of a streamed history holds: a part per point would be an async step per point. */
const POINTS_PER_PART = 256;

/** A series' points as JSON.stringify writes them, POINTS_PER_PART points a part. */
function* pointsInParts(points: readonly HistoryPoint[]): Generator<string> {
  if (!points.length) yield '[]';
  for (let i = 0; i < points.length; i += POINTS_PER_PART) {
    // Each batch's text without its brackets: the parts joined are one array's.
    const inner = JSON.stringify(points.slice(i, i + POINTS_PER_PART)).slice(1, -1);
    yield `${i ? ',' : '['}${inner}${i + POINTS_PER_PART >= points.length ? ']' : ''}`;
  }
}

/**
 * A history's JSON (historyParts' text) written from a view whose series
 * carry no points yet: each series' points asked of `pointsOf` (case and
 * series index) when its turn comes and dropped once written, so a history
 * of any length holds one series' points at a time, written a few hundred
 * points a part.
 */
export async function* streamedHistoryJson(view: HistoryView, pointsOf: (caseAt: number, seriesAt: number) => Promise<HistoryPoint[]>): AsyncGenerator<string> {
  yield* objectParts(view, 6, (key) => key !== 'cases' ? undefined : (async function* () {
    yield '[';
    for (const [c, hc] of view.cases.entries()) {
      if (c) yield ',';
      yield* objectParts(hc, 4, (key) => key !== 'series' ? undefined : (async function* () {
        yield '[';
        for (const [s, series] of hc.series.entries()) {
          if (s) yield ',';
          yield* objectParts(series, 2, (key) => key !== 'points' ? undefined : (async function* () {
            yield* pointsInParts(await pointsOf(c, s));
          })());
        }
        yield ']';
      })());
    }
    yield ']';
  })());
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
