/**
 * A bisect's answer as a view for report's reporter map (report
 * reporters/bisect.ts lays it out): the search's result with the engine of
 * every release it names, resolved by the runtime's plug-in and named by the
 * registry, and the releases measured as a series.
 */
import type { BisectEngine, BisectView } from '@rtbench/report/views';
import type { BisectResult } from '@rtbench/verdicts';
import { engineNamed } from '@rtbench/runtime-registry';
import { BISECT_DEFAULTS } from './defaults.ts';
import type { ReleaseRange } from '@rtbench/arms';
import { releaseSeriesInputs, releaseSeriesView } from './series.ts';
import type { BisectFolder } from './state.ts';
import type { Releases } from './step.ts';

/** What the answer says beside the search's result: what was bisected, where it lives, and how it was judged. */
export interface AnswerFacts {
  range: ReleaseRange;
  folder: BisectFolder;
  dir: string;
  releases: Releases;
  suite: string;
  caseId: string;
  measure: string;
  threshold: number;
  unit: BisectView['unit'];
}

export async function bisectView(result: BisectResult, facts: AnswerFacts): Promise<BisectView> {
  const { range, caseId, threshold } = facts;
  const named = new Set([result.first, result.last, ...(result.outcome.kind === 'changes' ? result.outcome.culprits.flatMap((c) => [c.older, c.newer]) : [])]);
  const engines: Record<string, BisectEngine | null> = {};
  const engineNames: Record<string, string> = {};
  for (const tag of named) {
    const t = await facts.releases.target(tag);
    engines[`${range.runtime}@${tag}`] = t ? { version: t.version, engine: t.engine, engineVersion: t.engineVersion } : null;
    if (t) engineNames[t.engine] = engineNamed(t.engine)?.displayName ?? t.engine;
  }
  const inputs = releaseSeriesInputs(range, facts.dir, facts.folder.state.steps, caseId);
  return {
    kind: 'bisect',
    runtime: range.runtime,
    suite: facts.suite,
    caseId,
    measure: facts.measure,
    threshold,
    confidence: BISECT_DEFAULTS.confidence,
    sameConfidence: BISECT_DEFAULTS.sameConfidence,
    folder: facts.dir,
    engines,
    result,
    ...(inputs.length ? { series: releaseSeriesView(inputs, threshold) } : {}),
    engineNames,
    unit: facts.unit,
  };
}
