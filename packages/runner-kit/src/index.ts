export * from './types.ts';
export { spawnJob, killTree, killAllChildren, liveChildPids, type SpawnJobOptions } from './process.ts';
export { assertExecutable, runBriefly, splitFlag, whichOnPath } from './binary.ts';
