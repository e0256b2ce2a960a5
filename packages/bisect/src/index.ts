export { bisect } from './search.ts';
export { pairedDecide, unitTest } from './decide.ts';
export type { BisectOptions, BisectOutcome, BisectResult, Culprit, Decide, Measure, PairedTest, SearchState, StepOutcome, StepPurpose, StepRecord, StepRequest, UnresolvedRange } from './types.ts';
export { answerLines, stepLine } from './answer.ts';
export { listRange, releaseVariant } from './range.ts';
export { releaseSeriesInputs, releaseSeriesView } from './series.ts';
export { BisectFolder, type BisectIdentity } from './state.ts';
export { cacheEntryOf, measureStep, Releases, StepInterrupted, type StepContext } from './step.ts';
