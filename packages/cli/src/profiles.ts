/**
 * --profile: after the run, one extra process per case × variant (never a
 * measured one: a profiler changes the timing) runs the case's timed loop
 * under the runtime's sampling profiler (@rtbench/profile). The profiles are
 * saved beside the run, in `<run>.profiles/`, as `.cpuprofile` files that
 * Chrome DevTools and speedscope open; the top functions by self time are
 * printed per case × variant, and for a comparison the functions whose share
 * of time moved most between the baseline and each other arm.
 */
import { join } from 'node:path';
import { diffProfiles, renderDiff, renderTop, type ProfileCaseResult } from '@rtbench/profile';
import { profileCase } from '@rtbench/profile';
import { printable } from '@rtbench/report';
import type { CaseListing } from '@rtbench/core/protocol';
import { bundleSuite } from './bundle.ts';
import type { SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';

/** Functions shown per case × variant. */
const TOP = 8;

/** A file-name-safe slug of a case or variant id. */
const slug = (text: string): string => text.replace(/[^\w.@=-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'case';

/** `results/x.json` -> `results/x.profiles` */
export const profilesDir = (runPath: string): string => runPath.replace(/\.json$/, '') + '.profiles';

export async function profileRun(
  suite: SuiteLocation & { cases: readonly CaseListing[] },
  variants: readonly (ResolvedVariant | UnavailableVariant)[],
  runPath: string,
  options: { compare: boolean; format: 'terminal' | 'markdown'; signal?: AbortSignal; onProgress?: (text: string) => void },
): Promise<string> {
  const dir = profilesDir(runPath);
  const arms = variants.filter(isResolved);
  const bundles = new Map<string, string>();
  for (const v of arms) if (!bundles.has(v.runner.runtime)) bundles.set(v.runner.runtime, (await bundleSuite(suite.entry, suite.name, v.runner.runtime, v.runner.bundle)).path);
  const out: string[] = [options.format === 'markdown' ? `## CPU profiles (${dir})` : `CPU profiles: ${dir} (open a .cpuprofile in Chrome DevTools or speedscope)`];
  for (const c of suite.cases) {
    const results: { variant: ResolvedVariant; result: ProfileCaseResult }[] = [];
    for (const v of arms) {
      if (options.signal?.aborted) return out.join('\n\n');
      options.onProgress?.(`profiling ${v.spec.id} · ${c.id}`);
      const arm = { runner: v.runner, target: v.target, flags: v.flags, bundlePath: bundles.get(v.runner.runtime)! };
      const result = await profileCase({ arm, caseId: c.id, outPath: join(dir, `${slug(c.id)}--${slug(v.spec.id)}.cpuprofile`), ...(options.signal ? { signal: options.signal } : {}) });
      results.push({ variant: v, result });
      const title = `${c.id} · ${v.spec.id}`;
      if (result.status === 'ok') out.push(renderTop(result.summary, { top: TOP, title, note: result.method, format: options.format }));
      else out.push(`${title}: no profile (${result.status}: ${'reason' in result ? result.reason : ''})`);
    }
    if (!options.compare) continue;
    const [base, ...others] = results;
    for (const other of others) {
      if (base?.result.status !== 'ok' || other.result.status !== 'ok') continue;
      out.push(renderDiff(diffProfiles(base.result.summary, other.result.summary), { top: TOP, a: base.variant.spec.id, b: other.variant.spec.id, title: `${c.id}: where the time moved, ${base.variant.spec.id} → ${other.variant.spec.id}`, format: options.format }));
    }
  }
  return printable(out.join('\n\n')) + '\n';
}
