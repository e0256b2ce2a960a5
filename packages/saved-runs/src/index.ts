/**
 * @rtbench/saved-runs: a run as a file. Written atomically after every job
 * (save.ts) under a name no other run holds (results-file.ts), read back
 * strictly, with each measurer's own fields checked and the digests,
 * same-work judgement and statistics recomputed from the rounds (saved-run.ts; the record's results added and
 * finished from its samples: record.ts, which the run's loop fills), the runs a history reads
 * (history-runs.ts; run-files.ts lists them, and a history that answers
 * them from a store imports those two alone, not the run schema), shard runs merged into one (merge-shards.ts), and the
 * places an output must not be (output-place.ts). What report, compare,
 * history, merge and the campaigns read and write runs through.
 */
export { addResults, computeStats, finishRun, resultKey } from './record.ts';
export { runSaver, writeRunAtomically } from './save.ts';
export { assertWritableOutput, claimResultsPath, defaultResultsPath, readJsonFile, readRegularFile, releaseUnsaved, tryCreatingIn } from './results-file.ts';
export { validateRun } from './validate-run.ts';
export { mergeShards } from './merge-shards.ts';
export { latestRun, loadDistinctRuns, loadSavedRun, readForHistory } from './saved-run.ts';
export { isRunFileName } from './run-files.ts';
export { historyFiles, readHistoryRuns } from './history-runs.ts';
export { outputFileOf } from './output-place.ts';
