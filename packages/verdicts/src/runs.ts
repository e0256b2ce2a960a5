/** Saved runs as the views and planners read them: one shape each, shared by report, run, bisect and the CLI. */
import type { RunRecord } from '@rtbench/core/schema';
import type { HistoryRecord } from './history-record.ts';

/** A saved or just-finished run and where it came from. */
export interface RunRef {
  run: RunRecord;
  /** The file it was read from or saved to. */
  file?: string;
}

/** A saved run as `rtbench compare` read it. */
export interface SavedRun extends RunRef {
  file: string;
  /** Said of the file as it was read: statistics its samples contradict, what its record cannot say that the analysis assumes. */
  notes?: string[];
}

/** A run as read for a history: the record and the file it came from. */
export interface HistoryInput extends RunRef {
  /** What to call the run instead of its commit or start time (a bisect names each by its release). */
  label?: string;
}

/** A run as a history reads it (history-record.ts) and where it came from: from its file, or from a results store. */
export interface HistoryEntry {
  record: HistoryRecord;
  file?: string;
  /** What to call the run instead of its commit or start time. */
  label?: string;
}

/**
 * A run file read for a history: the run as a history reads it, the digest
 * of its whole record (two files holding one record are one run; history-record.ts
 * recordDigest) and what was said of the file as it was read.
 */
export interface HistoryRead extends HistoryEntry {
  file: string;
  digest: string;
  notes?: string[];
}
