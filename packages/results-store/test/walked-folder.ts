/**
 * A test's folder of synthetic runs an hour apart, and its reading of the
 * folder's history through its own store: the first walk over its newest 5
 * runs, what it decided, as data to compare; its runs' facts against its
 * files'; and an older format's tables made from a current store's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyFiles, loadSavedRun, readHistoryRuns } from '@rtbench/saved-runs';
import type { SavedRun, WalkedSeries } from '@rtbench/verdicts';
import type BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { historyRead } from '@rtbench/verdicts';
import { openHistoryReading, type SeriesFilter } from '../src/index.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';

/** The cases of a folder's runs. */
export const cases = [
  { id: 'parse', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];
const HOUR = 3_600_000;
const day = Date.UTC(2026, 0, 1);

/** A run file of the folder, started `hours` after the first, its times `factor` of the first's. */
export function writeHourRun(dir: string, name: string, hours: number, factor: number, seed: number): void {
  const [run] = historyRuns([{ factor, startedAt: new Date(day + hours * HOUR).toISOString() }], { cases, rounds: 6, seed, suite: 'synthetic' });
  writeRun(join(dir, name), { ...run!, id: `walked-${name}` });
}

/** A new folder of 12 runs an hour apart with a step in the middle (run-00.json … run-11.json). */
export function hourRunFolder(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rtbench-${name}-`));
  [1, 1, 1, 1, 1.3, 1.3, 1.3, 1.3, 1, 1, 1, 1].forEach((factor, i) => writeHourRun(dir, `run-${String(i).padStart(2, '0')}.json`, i, factor, 17 + i * 31));
  return dir;
}

/**
 * Each file of `dir` as a history's reading answers it from its store (a
 * folder's own, or `place`, as `hostId`), against the file's own run without
 * its results; no file is read again.
 */
export async function expectFactsAsFiles(dir: string, files: readonly string[], place?: string, hostId?: string): Promise<void> {
  const reading = await openHistoryReading([dir], files, () => expect.fail('a stored file is not read again'), place, hostId);
  try {
    for (const file of files) {
      const whole = historyRead(loadSavedRun(file));
      expect(reading.load(file)).toEqual({ ...whole, record: { ...whole.record, results: [] } });
    }
  } finally {
    await reading.close();
  }
}

/** A store's tables as format 5 and before had them: no run shapes, no walk kept (a test makes an older store from a current one). */
export function dropShapes(db: BetterSqlite3.Database): void {
  db.exec('DROP TABLE shapes; DROP TABLE walk_checkpoints; ALTER TABLE runs DROP COLUMN git; ALTER TABLE runs DROP COLUMN shape');
}

export interface WalkedFolder {
  level: number;
  m: number;
  shown: number[];
  read: number[];
  series: WalkedSeries[];
}

/** The first walk of the folder's history over its newest 5 runs (`last`; null: every run shown), read through its store by `load`, of the series `filter` picks. */
export async function walkedFolder(dir: string, load: (file: string) => SavedRun = loadSavedRun, filter: SeriesFilter = {}, last: number | null = 5): Promise<WalkedFolder> {
  const reading = await openHistoryReading([dir], historyFiles([dir]), load);
  try {
    const { inputs } = readHistoryRuns([dir], reading.load);
    const { walked, series } = await reading.series!.walk(inputs, filter, { threshold: 0.01, confidence: 0.95 }, last ?? undefined);
    return { level: walked.step.level, m: walked.m, shown: [...(walked.shown ?? [])].sort(), read: [...(walked.read ?? [])].sort(), series };
  } finally {
    await reading.close();
  }
}
