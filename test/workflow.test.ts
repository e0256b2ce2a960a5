/**
 * The repository's GitHub Actions workflows, and the ones another repository
 * copies (docs/guides/ci/), validate against the workflow schema
 * (action-validator, from npm), and the validator does catch a broken one. The workflow itself runs on GitHub; what it calls (shards, merge,
 * compare, report) is tested here by the CLI's own tests. What is checked
 * here besides the schema is who may do what: which code each job runs (the
 * base's or the pull request's), which token it holds, and whether its
 * checkouts keep credentials on disk.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, tempFile } from './helpers/cli.ts';

const VALIDATOR = join(repoRoot, 'node_modules', '.bin', 'action-validator');
const WORKFLOWS = join(repoRoot, '.github', 'workflows');
/** The workflows another repository copies (docs/guides/ci.md): held to the same rules. */
const RECIPES = join(repoRoot, 'docs', 'guides', 'ci');
const validate = (file: string) => spawnSync(VALIDATOR, [file], { encoding: 'utf8', timeout: 120_000 });

/** A workflow as far as these checks read it. */
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  'working-directory'?: string;
}
interface Job {
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const read = (path: string): Workflow => parse(readFileSync(path, 'utf8')) as Workflow;
const BENCHMARKS = read(join(WORKFLOWS, 'benchmarks.yml'));
/** Each workflow by its name here (a recipe's with its folder), its file and what it says. */
const ALL = [WORKFLOWS, RECIPES].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => ({ file: dir === WORKFLOWS ? f : `recipe ${f}`, path: join(dir, f), workflow: read(join(dir, f)) })),
);

/** The one way a checkout names the base commit: anything else (no ref) is the pull request's merge commit. */
const BASE_REF = '${{ github.event.pull_request.base.sha || github.sha }}';
const checkouts = (job: Job): Step[] => job.steps.filter((s) => s.uses?.startsWith('actions/checkout@'));
/** Whether a job puts the pull request's code on disk (and so runs it: every job that checks out installs and runs). */
const runsPullRequestCode = (job: Job): boolean => checkouts(job).some((s) => s.with?.ref !== BASE_REF);
/** Permissions a job's token has: its own, else the workflow's. */
const permissionsOf = (workflow: Workflow, job: Job): Record<string, string> => job.permissions ?? workflow.permissions ?? { 'all (GitHub default)': 'write' };
const writes = (permissions: Record<string, string>): string[] => Object.entries(permissions).flatMap(([scope, level]) => (level === 'write' ? [scope] : []));
const downloads = (job: Job): Step[] => job.steps.filter((s) => s.uses?.startsWith('actions/download-artifact@'));
/** A workspace path as written in a step, without ./ or a trailing slash ('' for the workspace itself). */
const place = (path: unknown): string => String(path ?? '').replace(/^\.\/?/, '').replace(/\/+$/, '');
/** Whether one workspace path lies inside the other (or is it): the workspace itself holds every path. */
const nested = (a: string, b: string): boolean => a === '' || b === '' || a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
const scripts = (job: Job): string => job.steps.map((s) => `${s.run ?? ''}\n${String(s.with?.script ?? '')}`).join('\n');

describe('GitHub Actions workflows', () => {
  it('validate against the workflow schema, and a broken one does not', () => {
    expect(ALL.map((w) => w.file)).toContain('benchmarks.yml');
    expect(ALL.map((w) => w.file)).toContain('releases.yml');
    expect(ALL.map((w) => w.file)).toEqual(expect.arrayContaining(['recipe rtbench.yml', 'recipe rtbench-comment.yml']));
    for (const { file, path } of ALL) {
      const r = validate(path);
      expect(r.status, `${file}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const broken = tempFile('broken.yml');
    writeFileSync(broken, readFileSync(join(WORKFLOWS, 'benchmarks.yml'), 'utf8').replace(/^ {4}steps:$/m, '    stepz:'));
    expect(validate(broken).status).not.toBe(0);
  });

  it('uses only commands the CLI has: shards, merge, compare with a regression gate, the HTML report', () => {
    const text = readFileSync(join(WORKFLOWS, 'benchmarks.yml'), 'utf8');
    for (const used of ['--shard ${{ matrix.shard }}/$SHARDS', 'rtbench merge ../runs/run-base-*/base-*.json', 'rtbench compare ../base.json ../head.json', '--fail-on-regression', 'report ../head.json --format html -o ../report.html']) expect(text).toContain(used);
    // A flagged regression fails the gate only when a fresh rerun of those cases confirms it.
    for (const used of ['--flagged ../flagged.filter', '--filter "$filter"', 'rtbench compare ../confirm-base.json ../confirm-head.json', 'CONFIRM_EXIT']) expect(text).toContain(used);
    // The instruction gate beside the time gate: both sides counted, then compared with its own limit.
    for (const used of ['--measure instructions --save ../counts-$side.json', 'rtbench compare ../artifacts/counts-runs/counts-base.json ../artifacts/counts-runs/counts-head.json', '--fail-on-regression "$FAIL_ON_MORE_INSTRUCTIONS"', 'apt-get install -y valgrind', 'kernel.yama.ptrace_scope=0']) expect(text).toContain(used);
  });

  it('gives no job that runs the pull request\'s code a write permission, and no checkout keeps credentials', () => {
    for (const { file, workflow } of ALL) {
      for (const [name, job] of Object.entries(workflow.jobs)) {
        for (const checkout of checkouts(job)) expect(checkout.with?.['persist-credentials'], `${file} ${name}`).toBe(false);
        if (runsPullRequestCode(job)) expect(writes(permissionsOf(workflow, job)), `${file} ${name}`).toEqual([]);
      }
    }
    // The jobs that measure the pull request are the ones that check it out; the rule above is not vacuous.
    expect(Object.entries(BENCHMARKS.jobs).filter(([, job]) => runsPullRequestCode(job)).map(([name]) => name).sort()).toEqual(['confirm', 'counts', 'measure']);
  });

  it('computes every verdict with the base\'s rtbench: a job that merges or compares checks out the base commit only', () => {
    const judging = Object.entries(BENCHMARKS.jobs).filter(([, job]) => /rtbench (compare|merge)/.test(scripts(job)));
    expect(judging.map(([name]) => name).sort()).toEqual(['gate', 'verdict']);
    for (const [name, job] of judging) {
      expect(checkouts(job).length, name).toBeGreaterThan(0);
      expect(runsPullRequestCode(job), name).toBe(false);
    }
  });

  it('lets no downloaded file stand in for a file of a checkout: every job that checks out and downloads keeps them in folders apart, each artifact in its own', () => {
    const both = ALL.flatMap(({ file, workflow }) => Object.entries(workflow.jobs).flatMap(([name, job]) => (checkouts(job).length && downloads(job).length ? [{ where: `${file} ${name}`, job }] : [])));
    // The jobs that run the base's rtbench on what the pull request's jobs made are among them: the rule is not vacuous.
    expect(both.map((b) => b.where)).toEqual(expect.arrayContaining(['benchmarks.yml verdict', 'benchmarks.yml gate', 'releases.yml merge']));
    for (const { where, job } of both) {
      const checkedOut = checkouts(job).map((c) => place(c.with?.path));
      for (const download of downloads(job)) {
        const into = place(download.with?.path);
        for (const tree of checkedOut) expect(nested(into, tree), `${where}: artifacts into "${into}", a checkout in "${tree}"`).toBe(false);
        // One folder per artifact: one side's artifact cannot hold a file named as the other side's.
        expect(download.with?.['merge-multiple'], where).toBeUndefined();
      }
      // A job that runs the base's rtbench runs it inside its checkout, never in the folder of the artifacts.
      if (runsPullRequestCode(job)) continue;
      for (const step of job.steps.filter((s) => s.run !== undefined && /\bpnpm\b/.test(s.run))) expect(checkedOut, `${where}: ${step.run}`).toContain(place(step['working-directory']));
    }
  });

  it('posts the comment from a workflow_run job that runs no code of the pull request, and has the permission to', () => {
    const commenting = ALL.flatMap(({ file, workflow }) => Object.entries(workflow.jobs).flatMap(([name, job]) => (/createComment/.test(scripts(job)) ? [{ file, name, job, workflow }] : [])));
    expect(commenting.map((c) => `${c.file} ${c.name}`)).toEqual(['benchmarks-comment.yml comment', 'recipe rtbench-comment.yml comment']);
    for (const { workflow, job } of commenting) {
      expect(Object.keys(workflow.on)).toEqual(['workflow_run']);
      expect(permissionsOf(workflow, job)['pull-requests']).toBe('write');
      // Nothing of the pull request's on disk, nothing run but the posting script.
      expect(checkouts(job)).toEqual([]);
      expect(job.steps.filter((s) => s.run !== undefined)).toEqual([]);
    }
    // The gate writes the comment into an artifact whatever happened; the posting job reads that artifact.
    expect(JSON.stringify(BENCHMARKS.jobs.gate!.steps)).toContain('rtbench-comment');
    expect(JSON.stringify(commenting[0]!.job.steps)).toContain('rtbench-comment');
  });

  it('gives the copied recipe one measuring job that runs rtbench-pr and hands its verdicts to the commenting workflow by name', () => {
    const recipe = ALL.find((w) => w.file === 'recipe rtbench.yml')!.workflow;
    const comment = ALL.find((w) => w.file === 'recipe rtbench-comment.yml')!.workflow;
    expect(Object.keys(recipe.on)).toEqual(['pull_request']);
    expect(scripts(recipe.jobs.measure!)).toContain('npx rtbench-pr --base "$BASE"');
    // The history the base commit is in, for the worktree rtbench-pr checks it out into.
    expect(checkouts(recipe.jobs.measure!).map((c) => c.with?.['fetch-depth'])).toEqual([0]);
    const uploaded = recipe.jobs.measure!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))?.with?.name;
    expect(uploaded).toBe('rtbench-comment');
    expect(downloads(comment.jobs.comment!).map((s) => s.with?.name)).toEqual([uploaded]);
    expect((comment.on.workflow_run as { workflows: string[] }).workflows).toEqual([(parse(readFileSync(join(RECIPES, 'rtbench.yml'), 'utf8')) as { name: string }).name]);
  });

  it('reruns the flagged cases as the docs say: base and head alternating, twice each, each side merged before the compare', () => {
    const rerun = scripts(BENCHMARKS.jobs.confirm!);
    expect(rerun).toMatch(/for turn in 1 2; do\s+for side in base head; do/);
    const gate = scripts(BENCHMARKS.jobs.gate!);
    expect(gate).toContain('rtbench merge ../artifacts/confirm-runs/confirm-base-1.json ../artifacts/confirm-runs/confirm-base-2.json --save ../confirm-base.json');
    expect(gate).toContain('rtbench merge ../artifacts/confirm-runs/confirm-head-1.json ../artifacts/confirm-runs/confirm-head-2.json --save ../confirm-head.json');
  });

  it('runs the release matrix on a schedule: shards of whole tracks, kept between runs, merged into the page and the report', () => {
    const text = readFileSync(join(WORKFLOWS, 'releases.yml'), 'utf8');
    // Every command it calls is run by packages/cli/test/releases.test.ts: the shards, the budget's exit, the merge.
    for (const used of ['schedule:', 'workflow_dispatch:', 'rtbench releases $RANGES $SUITES --shard ${{ matrix.shard }}/$SHARDS --dir matrix/shard-${{ matrix.shard }} --budget "$BUDGET"', '"$code" != 75', 'rtbench merge ../shards/releases-shard-* --save ../merged', 'merged/releases.html', 'merged/releases.md', 'actions/cache/restore@v4', 'actions/cache/save@v4']) expect(text).toContain(used);
    // A lock restored with a shard's folder names a runner that is gone, which rtbench cannot check (it refuses, naming the file): the job removes it.
    expect(text.indexOf('rm -f matrix/shard-${{ matrix.shard }}/releases.lock')).toBeGreaterThan(text.indexOf('actions/cache/restore@v4'));
    expect(text.indexOf('rm -f matrix/shard-${{ matrix.shard }}/releases.lock')).toBeLessThan(text.indexOf('rtbench releases $RANGES'));
    const shards = /SHARDS: (\d+)/.exec(text)?.[1];
    expect(text).toContain(`shard: [${Array.from({ length: Number(shards) }, (_, i) => i + 1).join(', ')}]`);
  });
});
