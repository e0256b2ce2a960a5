/**
 * Each measurer's verdict defaults, by the kind a saved run names, and the
 * verdict's parameters of a view of saved runs read from them. Nothing here
 * declares a schema, so a command that shows runs answered by a results
 * store (history) finds their verdict without loading the measurers'
 * records; each record's `verdict` is its kind's entry here
 * (test/verdict-defaults.test.ts holds them to it).
 */
import type { MeasurerKind, VerdictBasis, VerdictParameters } from '@rtbench/core/schema';
import { DEFAULT_THRESHOLD } from '@rtbench/stats';
import type { EngineThresholds, VerdictDefaults } from './record.ts';

/** The timing measurers' verdicts: the 1% threshold, because below it processes of one binary differ for reasons not under test. */
export const TIMING_VERDICT: VerdictDefaults = { threshold: () => DEFAULT_THRESHOLD, confidence: 0.95 };

/** The threshold of instruction counts when no engine says otherwise: 0.5%. */
const DEFAULT_COUNT_THRESHOLD = 0.005;

/**
 * Instruction counts' verdicts: the count threshold of a comparison between these engines, the largest of theirs,
 * each declared by its engine (EngineCounting.threshold); the default for an engine not known.
 */
export const INSTRUCTIONS_VERDICT: VerdictDefaults = {
  threshold: (engines) => Math.max(DEFAULT_COUNT_THRESHOLD, ...engines.map((e) => e?.counting?.threshold ?? DEFAULT_COUNT_THRESHOLD)),
  confidence: 0.95,
};

/** The kind a run that names none was measured by: fresh processes, before lockstep. */
export const UNNAMED_KIND = 'processes';

/** Each measurer's verdict defaults by its kind. */
export const MEASURER_VERDICTS: ReadonlyMap<MeasurerKind, VerdictDefaults> = new Map([
  ['lockstep', TIMING_VERDICT],
  ['processes', TIMING_VERDICT],
  ['duet', TIMING_VERDICT],
  ['instructions', INSTRUCTIONS_VERDICT],
  ['host-timed', TIMING_VERDICT],
  ['request-cpu', TIMING_VERDICT],
]);

/** A saved run names a measurer this rtbench does not have, and needs it (it does not carry its own words and verdict). */
export class UnknownMeasurer extends Error {}

/** The engine a run records by this id, as far as the reader knows it (undefined: not known). */
export type EngineLookup = (id: string | undefined) => EngineThresholds | undefined;

/** The refusal of a run that names a kind a registry lacks (`kinds`: those it has). */
export const unknownMeasurer = (kind: MeasurerKind | undefined, kinds: Iterable<MeasurerKind>): UnknownMeasurer =>
  new UnknownMeasurer(`measured by "${kind ?? UNNAMED_KIND}", a measurer this rtbench does not have (it has ${[...new Set(kinds)].join(', ')})`);

/** The verdict defaults of the measurer a run names by its kind; a kind not known is refused (UnknownMeasurer). */
function verdictOfKind(kind: MeasurerKind | undefined): VerdictDefaults {
  const found = MEASURER_VERDICTS.get(kind ?? UNNAMED_KIND);
  if (!found) throw unknownMeasurer(kind, MEASURER_VERDICTS.keys());
  return found;
}

/**
 * The verdict's parameters for a view of saved runs of one measurer: the largest threshold (each run's as it saved
 * it, else its measurer's for its variants' engines, found by `engineNamed`) and the first run's confidence; for
 * none, or runs of different measurers, the default measurer's (lockstep's, a timing verdict) for no engine.
 * `verdictOf` and `fallback`: a registry's own (RecordRegistry: its first record's), where it is not this one.
 */
export function verdictOfRuns(runs: readonly VerdictBasis[], engineNamed: EngineLookup, verdictOf: (kind: MeasurerKind | undefined) => VerdictDefaults = verdictOfKind, fallback: VerdictDefaults = TIMING_VERDICT): VerdictParameters {
  const oneMeasurer = runs.length > 0 && new Set(runs.map((r) => r.options.measurer)).size === 1;
  const each = (oneMeasurer ? runs : []).map(({ options, variants }) => {
    if (options.verdict) return options.verdict;
    const verdict = verdictOf(options.measurer);
    return { threshold: verdict.threshold(variants.filter((v) => !v.unavailable).map((v) => engineNamed(v.engine))), confidence: verdict.confidence };
  });
  return { threshold: each.length ? Math.max(...each.map((v) => v.threshold)) : fallback.threshold([]), confidence: each[0]?.confidence ?? fallback.confidence };
}
