export { bisect } from './search.ts';
export { pairedDecide, unitTest } from './decide.ts';
export type { BisectOptions, BisectOutcome, BisectResult, Culprit, Decide, Measure, PairedTest, SearchState, StepOutcome, StepPurpose, StepRecord, StepRequest, UnresolvedRange } from './types.ts';
