/**
 * A test's reading of a folder's history through its own store: the first
 * walk over its newest 5 runs, what it decided, as data to compare.
 */
import { historyFiles, loadSavedRun, readHistoryRuns } from '@rtbench/saved-runs';
import type { SavedRun, WalkedSeries } from '@rtbench/verdicts';
import { openHistoryReading } from '../src/index.ts';

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
