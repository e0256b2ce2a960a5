/**
 * @rtbench/bisect, a planner over the run: the search and its decision rule
 * (search.ts, decide.ts: pure), the bisect's folder that makes it
 * resumable (state.ts), a step measured through @rtbench/run (step.ts)
 * within a budget (session.ts), the answer as a view for the reporter map
 * (answer.ts) and the releases as a series (series.ts), run as one
 * campaign by runBisect (campaign.ts), the entry the command calls: the CLI
 * parses, plans each step's run (the plan port) and writes the answer. The
 * range's releases are listed by @rtbench/run (release-listing.ts).
 */
export { runBisect, type BisectPorts, type BisectRequest } from './campaign.ts';
export { BISECT_DEFAULTS, bisectThreshold } from './defaults.ts';
export { bisect } from './search.ts';
export { pairedDecide, unitTest } from './decide.ts';
export type { BisectOptions, BisectOutcome, BisectResult, Culprit, Decide, Measure, PairedTest, SearchState, StepOutcome, StepPurpose, StepRecord, StepRequest, UnresolvedRange } from './types.ts';
export { StepInterrupted } from './step.ts';
export { searchReleases } from './session.ts';
