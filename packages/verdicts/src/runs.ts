/** Saved runs as the views and planners read them: one shape each, shared by report, run, bisect and the CLI. */
import type { RunRecord } from '@rtbench/core/schema';

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
