export { releasesCampaign, type MatrixFacts, type WindowAbout } from './campaign.ts';
export { analyseMatrix } from './analysis.ts';
export { keepClaims, matchClaims, type GivenClaims, type ReleaseOf } from './claims.ts';

export { pendingJobs } from './estimate.ts';
export { mergeMatrices } from './merge.ts';
export { shardTracks } from './shard.ts';
export { MatrixRefused } from './refused.ts';
export { isMatrixFolder, loadMatrix, openMatrix, saveMatrix, syncTracks } from './state.ts';
export { folderRuns } from './folder-files.ts';
export { drawMatrix, listTracks, MATRIX_DEFAULTS, MATRIX_FILES, MatrixSitting, nextRunFile, type WindowPlanner } from './sitting.ts';
export type { MatrixIdentity, MatrixState } from './types.ts';
export { thin } from './windows.ts';
