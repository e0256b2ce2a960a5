/**
 * @rtbench/bisect, a planner over the run: the search and its decision rule
 * (search.ts, decide.ts: pure), the bisect's folder that makes it
 * resumable (state.ts) and its steps replayed from their runs (resume.ts),
 * the releases resolved and a step's run read (step.ts), the answer as a
 * view (answer.ts) and the releases as a series (series.ts); bisectCampaign
 * (campaign.ts) is the planner the command hands to the campaign loop: the
 * CLI parses, plans each step's run (the plan port), words what happens
 * and writes the answer. The
 * range's releases are listed by @rtbench/arms (release-listing.ts).
 */
export { bisectCampaign, type BisectFacts, type BisectStep, type StepAbout } from './campaign.ts';
export { BISECT_DEFAULTS, bisectRounds, bisectThreshold } from './defaults.ts';
export { bisect } from './search.ts';
export { pairedDecide, unitTest } from './decide.ts';
export type { BisectOptions, BisectResult, Measure, StepRecord, StepRequest } from './types.ts';
