/**
 * A test's reading of a folder's history through its own store: the first
 * walk over its newest 5 runs, what it decided, as data to compare; its
 * runs' facts against its files'; and an older format's tables made from a
 * current store's.
 */
import { historyFiles, loadSavedRun, readHistoryRuns } from '@rtbench/saved-runs';
import type { SavedRun, WalkedSeries } from '@rtbench/verdicts';
import type BetterSqlite3 from 'better-sqlite3';
import { expect } from 'vitest';
import { historyRead } from '@rtbench/verdicts';
import { openHistoryReading } from '../src/index.ts';

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

/** A store's tables as format 5 and before had them: no run shapes (a test makes an older store from a current one). */
export function dropShapes(db: BetterSqlite3.Database): void {
  db.exec('DROP TABLE shapes; ALTER TABLE runs DROP COLUMN git; ALTER TABLE runs DROP COLUMN shape');
}

export interface WalkedFolder {
  level: number;
  m: number;
  shown: number[];
  read: number[];
  series: WalkedSeries[];
}

/** The first walk of the folder's history over its newest 5 runs, read through its store by `load`. */
export async function walkedFolder(dir: string, load: (file: string) => SavedRun = loadSavedRun): Promise<WalkedFolder> {
  const reading = await openHistoryReading([dir], historyFiles([dir]), load);
  try {
    const { inputs } = readHistoryRuns([dir], reading.load);
    const { walked, series } = await reading.series!.walk(inputs, {}, { threshold: 0.01, confidence: 0.95 }, 5);
    return { level: walked.step.level, m: walked.m, shown: [...(walked.shown ?? [])].sort(), read: [...(walked.read ?? [])].sort(), series };
  } finally {
    await reading.close();
  }
}
