/**
 * `pnpm test:mutation`: Stryker over the code every printed number passes
 * through, one area at a time, each area's mutants against that area's own
 * tests (against the whole fast list Stryker estimated ten hours: code that
 * runs at import needs every test each). docs/tests.md, "Mutation testing".
 *
 *   pnpm test:mutation                      every area, in turn
 *   pnpm test:mutation stats report         the areas named
 *   pnpm test:mutation stats -- --mutate packages/stats/src/units.ts
 *                                           Stryker's own options after `--`
 *
 * Each area keeps its results in reports/mutation/<area>.json (not committed: a
 * few hundred kB to MB rewritten by every run): a rerun in the same checkout
 * tests only the mutants whose code or covering tests changed since; a fresh
 * clone's first run is a full one.
 * Stryker 10 needs Node.js 22 or later; the repository's own node 22 (runners/node's
 * `node-22` dependency) runs it when the current one is older.
 * Exits 2 on an unknown area, else with Stryker's code.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..');

interface Area {
  /** Files mutated (Stryker's `mutate` globs). */
  mutate: string[];
  /** Test files run against them (Stryker's `testFiles`). */
  tests: string[];
}

const AREAS: Record<string, Area> = {
  stats: {
    mutate: ['packages/stats/src/**/*.ts', '!packages/stats/src/index.ts'],
    tests: ['packages/stats/test/**/*.test.ts'],
  },
  digest: {
    mutate: ['packages/core/src/digest.ts'],
    tests: ['packages/core/test/digest*.test.ts', 'test/digest-tolerance.test.ts'],
  },
  // The masks that let changing responses pass as the same work: a mutant that masks more must fail a test.
  'same-work': {
    mutate: ['packages/core/src/same-work/*.ts', '!packages/core/src/same-work/index.ts'],
    tests: ['packages/core/test/same-work*.test.ts'],
  },
  // Against a fake clock only: the measuring tests run real batches, and a
  // mutant that never finds a clock edge costs each of them the whole time-out.
  clock: {
    mutate: ['packages/core/src/clock.ts'],
    tests: ['packages/core/test/clock.test.ts'],
  },
  // The span that sizes a sample to hold the case's collections, and the run-up before each lockstep sample: the headline's first step, against scripted cases.
  amortize: {
    mutate: ['packages/core/src/amortize.ts', 'packages/core/src/run-up.ts'],
    tests: ['packages/core/test/amortize.test.ts', 'packages/core/test/run-up.test.ts'],
  },
  run: {
    mutate: ['packages/saved-runs/src/record.ts'],
    tests: ['packages/run/test/**/*.test.ts', 'packages/measurers/test/**/*.test.ts', 'test/digest-tolerance.test.ts', 'packages/saved-runs/test/planted-edits.test.ts'],
  },
  // Ratios and claims' words are decided in @rtbench/verdicts and printed by report: one area, as their tests read both.
  report: {
    mutate: ['packages/verdicts/src/ratios.ts', 'packages/report/src/cells/run.ts', 'packages/report/src/columns/results.ts', 'packages/verdicts/src/claim-decision.ts'],
    // The tests of these files' behaviour; the tables' end-to-end tests (views, reporters,
    // word-and-interval: seconds per test) made a mutant cost minutes.
    tests: ['cells-run', 'cells-run-text', 'cells-run-budget', 'columns', 'compare-render', 'verdict-words', 'format', 'table-key', 'without-work-marks', 'collector-share', 'views', 'steady-state-marks', 'where', 'metrics', 'profile-section', 'platforms']
      .map((f) => `packages/report/test/${f}.test.ts`)
      .concat(['ratios', 'claim-decision'].map((f) => `packages/verdicts/test/${f}.test.ts`))
      .concat('packages/cli/test/claims-views.test.ts'),
  },
  // Where a server process's CPU per request became steady, and the round's phases read from that point.
  'request-steady': {
    mutate: ['packages/stats/src/request-steady.ts', 'packages/measurers/src/measurers/request-phases.ts'],
    tests: ['packages/stats/test/request-steady.test.ts', 'packages/measurers/test/request-phases.test.ts'],
  },
  // A load round's windows: their steady point, when a round may stop, its phases pooled.
  'load-windows': {
    mutate: ['packages/host-timed/src/load-windows.ts'],
    tests: ['packages/host-timed/test/load-windows.test.ts'],
  },
  // A request's answer as the host reads and judges it: the bounded body, its digest, what of it is compared, and how the request ended.
  request: {
    mutate: ['packages/host-timed/src/request/body.ts', 'packages/host-timed/src/request/answers.ts', 'packages/host-timed/src/request/outcomes.ts'],
    tests: ['packages/host-timed/test/request-body.test.ts', 'packages/host-timed/test/answers.test.ts'],
  },
  // Saved runs and campaign state read as untrusted: machine state computed without spreading, the markdown
  // table's header lines that copy a run's machine and runtime facts, a campaign's files confined to its folder,
  // a resumed bisect replayed from its runs and cleaned within the cache. Each file against the tests that import
  // it by path: a test that imports it through its package (@rtbench/run) runs the unmutated copy.
  'saved-runs': {
    mutate: ['packages/verdicts/src/machine-state.ts', 'packages/report/src/reporters/markdown.ts:26-33', 'packages/campaign/src/campaign-files.ts', 'packages/bisect/src/resume.ts'],
    tests: ['packages/verdicts/test/machine-state.test.ts', 'packages/report/test/markdown-escaping.test.ts', 'packages/bisect/test/replay.test.ts', 'packages/campaign/test/campaign-files.test.ts'],
  },
  // The saved-runs package, which reads a saved run back as data: its digests, its same work, its statistics taken
  // again from its rounds, what is refused unread, the files history lists, shards merged, a run written. Against
  // the pure tests that import its files by path.
  'saved-run': {
    mutate: ['packages/saved-runs/src/*.ts', '!packages/saved-runs/src/index.ts'],
    tests: ['packages/saved-runs/test/*.test.ts', 'packages/run/test/record.test.ts', 'test/digest-tolerance.test.ts', 'packages/cli/test/faults/forged-output.test.ts'],
  },
  // The CLI's plan (what a command's flags make of a run: rounds, sets, time, the measurer) and its informational lines.
  cli: {
    mutate: ['packages/cli/src/plan.ts', 'packages/cli/src/emit/info.ts'],
    tests: ['plan', 'plan-resolved', 'plan-flags', 'info-lines', 'bisect-threshold', 'brought-schedule', 'refused-variants', 'campaign-lines'].map((f) => `packages/cli/test/${f}.test.ts`),
  },
};

/** A node binary of version 22 or later: this one, or runners/node's node-22. */
function node22(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const fromNodeRunner = createRequire(join(repoRoot, 'runners/node/package.json'));
  return join(dirname(fromNodeRunner.resolve('node-22/package.json')), 'bin/node');
}

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const names = dashes < 0 ? args : args.slice(0, dashes);
const strykerArgs = dashes < 0 ? [] : args.slice(dashes + 1);
const unknown = names.filter((n) => !(n in AREAS));
if (unknown.length) {
  console.error(`test:mutation: no area ${unknown.map((n) => `"${n}"`).join(', ')} (areas: ${Object.keys(AREAS).join(', ')})`);
  process.exit(2);
}

const stryker = join(dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json')), 'bin/stryker.js');
for (const name of names.length ? names : Object.keys(AREAS)) {
  const area = AREAS[name]!;
  console.log(`test:mutation: ${name}`);
  const run = spawnSync(
    node22(),
    [stryker, 'run', 'stryker.config.mjs', '--mutate', area.mutate.join(','), '--testFiles', area.tests.join(','), '--incrementalFile', `reports/mutation/${name}.json`, ...strykerArgs],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}
