export { analyseMatrix, setsIn, type RunReader } from './analysis.ts';
export { bisectCommand, compareCommand, releaseVariantText, shellWord } from './commands.ts';
export { estimateJobMs, pendingJobs, planTracks, processesOf, type TrackPlan, type WindowJob } from './estimate.ts';
export { mergeMatrices } from './merge.ts';
export { shardTracks } from './shard.ts';
export { isMatrixFolder, loadMatrix, MatrixRefused, openMatrix, saveMatrix, syncTracks } from './state.ts';
export { drawMatrix, MATRIX_DEFAULTS, MatrixSitting, type WindowPlanner } from './sitting.ts';
export type { MatrixIdentity, MatrixState, TrackState, WindowState } from './types.ts';
export { cutWindows, thin, windowsToAdd } from './windows.ts';
