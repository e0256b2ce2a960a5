import type { DeclaredValue } from '@rtbench/adapters/value-shape';

/** Where a suite is: its name (bench/<name>, or a brought file's) and the file a bundle starts from. */
export interface SuiteLocation {
  name: string;
  entry: string;
  /** What a run of it says first (a Worker's: the requests it defaulted to, the compatibility it is served with, a build not run). */
  notes?: readonly string[];
  /** Said only when a runtime that serves modules (the Workers runtime) is among the run's: the compatibility it serves a Worker with. */
  servedModuleNotes?: readonly string[];
}

/** The requests the command line gives a Worker. */
export interface WorkerRequests {
  request: readonly string[];
  requests?: string;
  /** --normalize: patterns whose matches are replaced before answers are compared. */
  normalize?: readonly string[];
}

/** What the command line gives a brought file: a Node.js core file's configurations (--set), cases whose values are random or per-runtime (--random, --per-runtime), a Worker's requests. */
export interface BroughtSettings {
  set?: readonly string[];
  declared?: readonly DeclaredValue[];
  /** A brought file draws real randomness while it loads (Math.random is not seeded then). */
  realRandomAtLoad?: boolean;
  worker?: WorkerRequests;
}
