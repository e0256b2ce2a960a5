/**
 * vitest's order, except that within a project the files known to take
 * longest start first. vitest orders a project's files by their last
 * durations, from a cache a fresh clone does not have (then by size, which
 * says little here): a long file started last leaves a core idle at the end.
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { INSTALL_STATUS_ENV } from './system-programs.ts';

/**
 * The files that took 5 s or more in the last whole run, slowest first by vitest's duration of each (a run beside
 * other work: a ranking, not figures; docs/measurements/tests.md, "The test command's time", has the figures), with
 * the files changed since placed by their time alone; a project's files are ranked among themselves (the apart
 * group's: the four runtimes' counts, host-timed, then the counts' runs that stop short before the native profiles).
 */
const SLOWEST_FIRST = [
  'test/library-releases.test.ts',
  'packages/cli/test/bisect-clean.test.ts',
  'test/instructions.test.ts',
  'test/suites.test.ts',
  'test/installed.test.ts',
  'test/arm64-emulated.test.ts',
  'packages/cli/test/releases.test.ts',
  'test/ssr.test.ts',
  'test/browser/html-report.test.ts',
  'packages/cli/test/host-timed.test.ts',
  'test/package-pins.test.ts',
  'test/faults/big-output.test.ts',
  'test/claims.test.ts',
  'test/brought-files.test.ts',
  'packages/cli/test/changing-responses.test.ts',
  'test/faults/faults.test.ts',
  'test/claims-across-versions.test.ts',
  'packages/cli/test/request-cases.test.ts',
  'packages/cli/test/request-faults.test.ts',
  'packages/cli/test/saved-before-block.test.ts',
  'test/cli-runtimes.test.ts',
  'test/examples.test.ts',
  'test/lockstep.test.ts',
  'test/browser/flame.test.ts',
  'test/browser/flame-alloc.test.ts',
  'test/browser/flame-native.test.ts',
  'test/values-digested.test.ts',
  'test/faults/usage.test.ts',
  'test/brought-formats.test.ts',
  'test/memory.test.ts',
  'test/instructions-stops.test.ts',
  'test/forged-figures.test.ts',
  'test/compare.test.ts',
  'test/workers.test.ts',
  'test/cli.test.ts',
  'test/interrupt.test.ts',
  'test/faults/orphans.test.ts',
  'packages/cli/test/launcher.test.ts',
  'packages/report/test/history.test.ts',
  'test/faults/output-file.test.ts',
  'packages/process/test/process.test.ts',
  'packages/profile/test/runtimes.test.ts',
  'test/shards.test.ts',
  'packages/cli/test/faults/saving.test.ts',
  'test/structure-targets.test.ts',
  'packages/cli/test/fifth-runtime.test.ts',
  'packages/report/test/different-work-verdicts.test.ts',
  'test/profile-cli.test.ts',
  'packages/arms/test/pins-one-bundle.test.ts',
  'packages/profile/test/native-runtimes.test.ts',
  'runners/workerd/test/workerd-plugin.test.ts',
  'test/duet.test.ts',
  'packages/profile/test/alloc-runtimes.test.ts',
  'packages/cli/test/added-measurer.test.ts',
  'test/plugin-faults.test.ts',
  'packages/report/test/reporters.test.ts',
  'test/node-env-arms.test.ts',
  'packages/report/test/word-and-interval.test.ts',
  'test/faults/containment.test.ts',
  'test/faults/said-why.test.ts',
  'test/faults/hostile-names.test.ts',
  'packages/report/test/names.test.ts',
  'packages/verdicts/test/request-quantiles.test.ts',
  'test/faults/closed-pipe.test.ts',
  'packages/core/test/measure.test.ts',
  'test/gc-metrics.test.ts',
  'packages/cli/test/history-command.test.ts',
  'packages/report/test/table-width.test.ts',
  'packages/host/test/runtime-store.test.ts',
  'packages/cli/test/faults/parsers.property.test.ts',
  'test/steady-state.test.ts',
  'runners/bun/test/bun-plugin.test.ts',
  'packages/report/test/request-latency.test.ts',
  'test/without-work.test.ts',
];

/**
 * How many files of a project start before one that needs a system program: the set-up installs
 * them beside the first tests (test/helpers/install-programs.ts), and on a fresh machine apt takes
 * about as long as the slowest few files that need none.
 */
const PROGRAMS_AFTER = 6;

/** Whether a test file asks for a system program (test/helpers/system-programs.ts), itself or through the browser helper. */
export const needsProgram = (source: string): boolean => /\bawait program\(|launchChromium\(/.test(source);

/** The order with each file that needs a program moved after the first PROGRAMS_AFTER files that do not (while the set-up installs). */
export function programsLater<T>(files: readonly T[], needs: (f: T) => boolean): T[] {
  const head: T[] = [];
  const waiting: T[] = [];
  const rest: T[] = [];
  for (const f of files) {
    if (needs(f) && head.length < PROGRAMS_AFTER) waiting.push(f);
    else if (head.length < PROGRAMS_AFTER) head.push(f);
    else rest.push(f);
  }
  return [...head, ...waiting, ...rest];
}

const readSource = (path: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SLOWEST_FIRST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i === -1 ? SLOWEST_FIRST.length : i;
    };
    // Where each project's files begin in vitest's order (groups and projects stay in its order).
    const projectStart = new Map<string, number>();
    sorted.forEach((f, i) => projectStart.has(f.project.name) || projectStart.set(f.project.name, i));
    const ranked = sorted
      .map((f, i) => ({ f, i, key: [projectStart.get(f.project.name)!, rank(f), i] as const }))
      .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2])
      .map(({ f }) => f);
    // The global set-up has run: it names a status file only while it installs programs beside the tests.
    if (!process.env[INSTALL_STATUS_ENV]) return ranked;
    const projects = [...new Set(ranked.map((f) => f.project.name))];
    return projects.flatMap((name) => programsLater(ranked.filter((f) => f.project.name === name), (f) => needsProgram(readSource(f.moduleId))));
  }
}
