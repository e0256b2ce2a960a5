/**
 * A history answered by a folder's store through its cursor (the first walk
 * over the figures' numbers, only the window's runs read whole) is the
 * history of the runs read whole: the same view, window, change points and
 * counts, with --filter and --runtime too; the runs outside the window are
 * read without their results. Its JSON written a series at a time is the
 * JSON of that history, byte for byte. Synthetic runs in a SQLite store;
 * no process started. (A store of an older format migrated: results-store's
 * format-3.test.ts.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyViewOf, reporterFor, streamedHistoryJson, type HistoryOptions, type HistoryOrder, type HistoryView } from '@rtbench/report';
import { openHistoryReading } from '@rtbench/results-store';
import { historyFiles, loadSavedRun, readForHistory, readHistoryRuns } from '@rtbench/saved-runs';
import { storedHistoryView, streamedStoredHistory } from '../src/stored-history.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';

const cases = [
  { id: 'parse', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

/** 24 runs: two steps, a variant only the oldest runs have, and a change of work. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-cursor-'));
  const factors = [1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
  const day = Date.UTC(2026, 0, 1);
  factors.forEach((factor, i) => {
    const variants = i < 3 ? ['node@24', 'node@22'] : ['node@24', 'node@26'];
    const [run] = historyRuns([{ factor, startedAt: new Date(day + i * 3_600_000).toISOString(), ...(i === 20 ? { digest: 'feedfacefeedface' } : {}) }], { cases, variants, rounds: 6, seed: 17 + i * 31, suite: 'synthetic' });
    writeRun(join(dir, `run-${String(i).padStart(2, '0')}.json`), { ...run!, id: `cursor-${i}` });
  });
  return dir;
}

/** Each series' change points: the run and the direction. */
const changePointsOf = (view: HistoryView) => view.cases.map((c) => c.series.map((s) => s.points.flatMap((p) => (p.changePoint ? [[view.runs[p.run]!.runId, p.changePoint]] : []))));

const order: HistoryOrder = { by: 'time', reason: 'by start time: the runs recorded no project commit' };

describe('a history through its store’s cursor', () => {
  const dir = folder();

  it.each<[string, HistoryOptions]>([
    ['the newest 5 runs', { last: 5 }],
    ['the newest run, one case, one variant', { last: 1, caseFilter: (id) => id === 'stringify', variants: ['node@24'] }],
    ['every run', {}],
  ])('is the history of the runs read whole: %s', async (_, asked) => {
    const options = { ...asked, order, threshold: 0.01, confidence: 0.95 };
    const whole = historyViewOf(readHistoryRuns([dir], readForHistory).inputs, options);
    // Twice: the first reading fills the store, the second is answered from it.
    for (let i = 0; i < 2; i++) {
      const reading = await openHistoryReading([dir], historyFiles([dir]), loadSavedRun);
      try {
        const { inputs } = readHistoryRuns([dir], reading.load);
        expect(reading.series).toBeDefined();
        expect(inputs.every((x) => x.record.results.length === 0)).toBe(true);
        expect(await storedHistoryView(inputs, reading.series!, options)).toEqual(whole);
      } finally {
        await reading.close();
      }
    }
    // The window's first walk leaves out of its reading the comparisons the FDR step cannot decide: the window of every point is the same.
    if (asked.last !== undefined) expect(changePointsOf(whole)).toEqual(changePointsOf(historyViewOf(readHistoryRuns([dir], readForHistory).inputs, { ...options, last: undefined })));
    if (asked.last === 5) {
      expect(whole.window!.runs.length).toBeLessThan(24);
      expect(whole.cases.flatMap((c) => c.series.flatMap((s) => s.points)).some((p) => p.changePoint)).toBe(true);
      expect(whole.cases[0]!.series.map((s) => s.variantId)).toEqual(['node@24', 'node@22', 'node@26']);
    }
  });

  it.each<[string, HistoryOptions]>([
    ['every case and variant', {}],
    ['one case, one variant', { caseFilter: (id) => id === 'stringify', variants: ['node@24'] }],
  ])('writes its JSON a series at a time, the JSON of the runs read whole: %s', async (_, asked) => {
    const options = { ...asked, order, threshold: 0.01, confidence: 0.95 };
    const json = reporterFor('json')!;
    const whole = historyViewOf(readHistoryRuns([dir], readForHistory).inputs, options);
    const reading = await openHistoryReading([dir], historyFiles([dir]), loadSavedRun);
    try {
      const { inputs } = readHistoryRuns([dir], reading.load);
      const streamed = await streamedStoredHistory(inputs, reading.series!, options);
      let text = '';
      try {
        expect(streamed.view.cases.every((c) => c.series.every((s) => s.points.length === 0))).toBe(true);
        for await (const part of streamedHistoryJson(streamed.view, streamed.pointsOf)) text += part;
      } finally {
        await streamed.close();
      }
      expect(text).toBe([...json.parts!(whole)!].join(''));
      // The gate's view: each series' newest point, as the whole view has it.
      const newest = (view: HistoryView) => view.cases.map((c) => c.series.map((s) => s.points.at(-1)));
      expect(newest(streamed.gated())).toEqual(newest(whole));
    } finally {
      await reading.close();
    }
  });
});
