/**
 * The repository's GitHub Actions workflows validate against the workflow
 * schema (action-validator, from npm), and the validator does catch a broken
 * one. The workflow itself runs on GitHub; what it calls (shards, merge,
 * compare, report) is tested here by the CLI's own tests.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempFile } from './helpers/cli.ts';

const VALIDATOR = join(repoRoot, 'node_modules', '.bin', 'action-validator');
const WORKFLOWS = join(repoRoot, '.github', 'workflows');
const validate = (file: string) => spawnSync(VALIDATOR, [file], { encoding: 'utf8', timeout: 120_000 });

describe('GitHub Actions workflows', () => {
  it('validate against the workflow schema, and a broken one does not', () => {
    const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith('.yml'));
    expect(files).toContain('benchmarks.yml');
    expect(files).toContain('releases.yml');
    for (const f of files) {
      const r = validate(join(WORKFLOWS, f));
      expect(r.status, `${f}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const broken = tempFile('broken.yml');
    writeFileSync(broken, readFileSync(join(WORKFLOWS, 'benchmarks.yml'), 'utf8').replace(/^ {4}steps:$/m, '    stepz:'));
    expect(validate(broken).status).not.toBe(0);
  });

  it('uses only commands the CLI has: shards, merge, compare with a regression gate, the HTML report', () => {
    const text = readFileSync(join(WORKFLOWS, 'benchmarks.yml'), 'utf8');
    for (const used of ['--shard ${{ matrix.shard }}/$SHARDS', 'rtbench merge base-*.json', 'rtbench compare base.json head.json', '--fail-on-regression', 'report head.json --format html -o report.html']) expect(text).toContain(used);
    // A flagged regression fails the gate only when a fresh rerun of those cases confirms it.
    for (const used of ['--flagged flagged.filter', '--filter "$filter"', 'rtbench compare confirm-base.json confirm-head.json', "steps.confirm.outputs.exit != '0'"]) expect(text).toContain(used);
    // The instruction gate beside the time gate: both sides counted, then compared with its own limit.
    for (const used of ['--measure instructions --save ../counts-$side.json', 'rtbench compare ../counts-base.json ../counts-head.json', '--fail-on-regression "$FAIL_ON_MORE_INSTRUCTIONS"', 'apt-get install -y valgrind', 'kernel.yama.ptrace_scope=0']) expect(text).toContain(used);
  });

  it('runs the release matrix on a schedule: shards of whole tracks, kept between runs, merged into the page and the report', () => {
    const text = readFileSync(join(WORKFLOWS, 'releases.yml'), 'utf8');
    // Every command it calls is run by packages/cli/test/releases.test.ts: the shards, the budget's exit, the merge.
    for (const used of ['schedule:', 'workflow_dispatch:', 'rtbench releases $RANGES $SUITES --shard ${{ matrix.shard }}/$SHARDS --dir matrix/shard-${{ matrix.shard }} --budget "$BUDGET"', '"$code" != 75', 'rtbench merge shards/releases-shard-* --save merged', 'merged/releases.html', 'merged/releases.md', 'actions/cache/restore@v4', 'actions/cache/save@v4']) expect(text).toContain(used);
    const shards = /SHARDS: (\d+)/.exec(text)?.[1];
    expect(text).toContain(`shard: [${Array.from({ length: Number(shards) }, (_, i) => i + 1).join(', ')}]`);
  });
});
