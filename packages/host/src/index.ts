/**
 * @rtbench/host: the host's own tools built on the plug-in contract, in rooms
 * by job, each its own entry: installs and the stores they fill
 * (@rtbench/host/installs), framework app builds (/apps), the programs a
 * runtime runs (/programs), the measuring tools (/tools), files (/files),
 * platform facts (/platform) and a checkout's git state (/git). This entry
 * holds the host's names for the contract's shapes.
 */
export type { BundleTarget, NpmInstallLocation, ProgramCommand, ProgramOptions, ReleaseIndex, RuntimeStore, WarmupHorizon } from './plugin-shapes.ts';
