/**
 * `rtbench releases` end to end, on a runtime whose releases are versions of
 * a tiny npm package (test/fixtures/release-runtime: "mxrt"), installed in
 * the runtime cache before the tests as the runtime store installs them, and
 * listed from there (RTBENCH_NO_INSTALL: no npm; a campaign's installs from a
 * registry are packages/cli/test/bisect-clean.test.ts's); each release's binary is a script
 * that starts this Node.js, on 1.0.0 and from 3.0.0 on with --jitless (the
 * tiny suite's longer sum then takes several times as long). Run here: the
 * plan alone, a matrix that finds the two planted changes (1.0.0 → 2.0.0
 * faster, 2.0.0 → 3.0.0 slower; no step it reads is alike, so no outcome
 * rests on how an unchanged step reads) with the commands that reproduce
 * them, the same command measuring nothing new, claims runs on its
 * releases (--claims) kept and drawn (and one of another runtime refused, the
 * state untouched), a release published
 * since measured alone with its predecessor, --fixed-warmup kept in every
 * run and in the state, and every command the scheduled
 * workflow (.github/workflows/releases.yml) calls: shards with a budget, the
 * budget's exit, and the merge into the page and the report; a folder it
 * cannot use (/proc, a damaged state) refused in one line. The matrix that
 * finds the changes runs through the real CLI; every other command runs in
 * the test's own process (usage-lines.ts), the plug-in registered as
 * RTBENCH_RUNTIME_PLUGINS registers it: a CLI start each cost more than the
 * fake runtime's processes they measure.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRuntimePlugins, unregisterRuntime } from '@rtbench/runtime-registry';
import { MATRIX_PACKAGE } from '../../../test/fixtures/release-runtime/matrix-plugin.ts';
import { useSeededReleases } from '../../../test/fixtures/release-runtime/use-registry.ts';
import { cacheDir } from '../src/paths.ts';
import { fixture, repoRoot, runCliAsync, unwrapped, type CliResult } from '../../../test/helpers/cli.ts';
import { commandStreams } from './usage-lines.ts';

const seeded = useSeededReleases({
  pkg: MATRIX_PACKAGE,
  versions: ['1.0.0', '2.0.0', '3.0.0', '4.0.0'],
  script: (v) => `#!/bin/sh\nexec '${process.execPath}'${v === '1.0.0' || v >= '3.0.0' ? ' --jitless' : ''} "$@"\n`,
  plugin: join(repoRoot, 'test/fixtures/release-runtime/matrix-plugin.ts'),
  runtimes: join(cacheDir, 'runtimes'),
});
const { scratch } = seeded;
// The commands run in this process find the releases in the cache and know mxrt, as the real CLI is told by its environment.
beforeAll(async () => {
  const env = seeded.env();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  await loadRuntimePlugins(env.RTBENCH_RUNTIME_PLUGINS);
});
afterAll(() => {
  unregisterRuntime('mxrt');
  vi.unstubAllEnvs();
});

/** A track's name: the runtime (and flags) × the suite, a file named by its path. */
const TINY = fixture('tiny');
const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/**
 * Short sets of the tiny suite's longer sum: 8 sets, two per process (4 independent units per step: with 3, the fewest
 * an interval takes, the planted jitless step read undecided once in six clean clones at load 3.5), each process warmed
 * a fixed 5 ms.
 */
const SMALL = [TINY, '--filter', 'n=1600', '--sets', '8', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--threshold', '20%', '--timeout', '60s'];
/** The workflow's shards and their merge: tracks split and joined, no verdict read, one process per release. */
const FEW = [TINY, '--filter', 'n=1600', '--sets', '2', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '60s'];
/** `rtbench releases` in this process (one command at a time); the real CLI for the matrix that finds the changes. */
const releases = (args: string[]): Promise<CliResult> => commandStreams(['releases', ...args]);
const releasesCli = (args: string[]): Promise<CliResult> => runCliAsync(['releases', ...args], seeded.env());

/** The committed `claims json-reviver --across`-style run (node@26 against node@24) as if made on mxrt@3.0.0 against mxrt@2.0.0 on the tiny suite. */
const NODE_CLAIMS = join(repoRoot, 'results/claims-20261124-035723Z/08-json-reviver.json');
function mxrtClaimsRun(file: string): string {
  const run = JSON.parse(readFileSync(NODE_CLAIMS, 'utf8')) as { id: string; suite: string; variants: { id: string; spec: string; runtime: string; version?: string }[]; results: { variantId: string }[]; claims: { outcomes: { suite: string; subject: { variantId: string }; other: { variantId: string } }[] } };
  const rename = (id: string): string => id.replace('node@26', 'mxrt@3.0.0').replace('node@24', 'mxrt@2.0.0');
  Object.assign(run, { id: 'mxrt-claims', suite: 'tiny' });
  for (const v of run.variants) Object.assign(v, { id: rename(v.id), spec: rename(v.spec), runtime: 'mxrt', version: v.spec === 'node@26' ? '3.0.0' : '2.0.0' });
  for (const r of run.results) r.variantId = rename(r.variantId);
  for (const o of run.claims.outcomes) Object.assign(o, { suite: 'tiny', subject: { ...o.subject, variantId: rename(o.subject.variantId) }, other: { ...o.other, variantId: rename(o.other.variantId) } });
  writeFileSync(file, JSON.stringify(run));
  return file;
}

const pickWarmup = ({ options }: { options: { warmupMs: number; warmupMinMs?: number } }) => ({ warmupMs: options.warmupMs, warmupMinMs: options.warmupMinMs });

describe.concurrent('rtbench releases', () => {
  it('plans, finds both planted changes with their commands, measures nothing twice, and only the new step after a release', async () => {
    const dir = join(scratch, 'one');
    const plan = await releases(['mxrt@1.0.0..mxrt@3.0.0', ...SMALL, '--dir', dir, '--plan']);
    expect(plan.status, plan.stderr).toBe(0);
    // A plan writes nothing: no folder, no lock.
    expect(existsSync(dir)).toBe(false);
    expect(plan.stderr).toMatch(new RegExp(`mxrt × ${escaped(TINY)}: 3 releases × 1 case; to measure: 1 window, 8 sets, 12 processes, ~\\d`));
    expect(plan.stderr).not.toContain('measuring');

    const first = await releasesCli(['mxrt@1.0.0..mxrt@3.0.0', ...SMALL, '--dir', dir]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain(`measuring mxrt × ${TINY}: 1.0.0, 2.0.0, 3.0.0: 8 sets, 12 processes`);
    // Both steps are planted (--jitless off, then on again); that an unchanged step is no change point is asserted on made-up
    // runs (packages/releases/test/matrix.test.ts), where its reading is not sampled.
    expect(first.stdout).toContain('change points: 2');
    const engines = String.raw`\(V8 [\d.]+(-node\.\d+)? → V8 [\d.]+(-node\.\d+)?\)`;
    expect(first.stdout).toMatch(new RegExp(String.raw`1\.0\.0 → 2\.0\.0 ${engines}: faster`));
    expect(first.stdout).toMatch(new RegExp(String.raw`2\.0\.0 → 3\.0\.0 ${engines}: slower`));
    for (const [older, newer] of [['1.0.0', '2.0.0'], ['2.0.0', '3.0.0']]) {
      expect(unwrapped(first.stdout)).toContain(`rtbench bench ${TINY} --compare mxrt@${older} mxrt@${newer} --filter '/^math \\/ sum \\[n=1600\\]$/'`);
      expect(readFileSync(join(dir, 'releases.md'), 'utf8')).toContain(`--compare mxrt@${older} mxrt@${newer}`);
    }
    expect(first.stdout).not.toContain('rtbench bisect');
    expect(readFileSync(join(dir, 'releases.html'), 'utf8')).toContain('<script type="application/json" id="rtbench-data">');
    // --fixed-warmup reached every run the matrix saved (a fixed warmup records no floor), and its state keeps it as part of the question.
    const saved = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(saved.length).toBeGreaterThan(0);
    for (const f of saved) expect({ f, ...pickWarmup(JSON.parse(readFileSync(join(dir, f), 'utf8')) as { options: { warmupMs: number; warmupMinMs?: number } }) }).toEqual({ f, warmupMs: 5, warmupMinMs: undefined });
    expect((JSON.parse(readFileSync(join(dir, 'releases.state'), 'utf8')) as { identity: { fixedWarmup?: boolean } }).identity.fixedWarmup).toBe(true);

    const again = await releases(['mxrt@1.0.0..mxrt@3.0.0', ...SMALL, '--dir', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain('nothing new to measure');
    expect(again.stderr).not.toContain('measuring');
    expect(again.stdout).toBe(first.stdout);

    // A claims run on 3.0.0: kept in the state and drawn, nothing measured; one of node's releases matches no track: refused in one line, the state as it was.
    const withClaims = await releases(['mxrt@1.0.0..mxrt@3.0.0', ...SMALL, '--dir', dir, '--claims', mxrtClaimsRun(join(scratch, 'mxrt-claims.json'))]);
    expect(withClaims.status, withClaims.stderr).toBe(0);
    expect(withClaims.stderr).toContain('nothing new to measure');
    expect(withClaims.stdout).toContain('claims that changed between releases: 0 (1 check on 1 release kept their word or stayed undecided)');
    expect(readFileSync(join(dir, 'releases.html'), 'utf8')).toContain('Reviver parsing is at least 1.5× faster');
    const state = readFileSync(join(dir, 'releases.state'), 'utf8');
    expect((JSON.parse(state) as { claims: { release: string; sides: unknown }[] }).claims.map((c) => [c.release, c.sides])).toEqual([['3.0.0', { subject: 'mxrt', other: 'mxrt@2.0.0' }]]);
    const wrong = await releases(['mxrt@1.0.0..mxrt@3.0.0', ...SMALL, '--dir', dir, '--claims', NODE_CLAIMS]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --claims .*08-json-reviver\.json: no claim in it was checked on a release of this matrix's tracks \(it checked json-reviver on node 24\.21\.0, node 26\.10\.0; the tracks: mxrt × .*tiny.* 1\.0\.0–3\.0\.0\)$/)]);
    expect(readFileSync(join(dir, 'releases.state'), 'utf8')).toBe(state);

    // 4.0.0 "published": its step only, paired with 3.0.0 in fresh sets.
    const grown = await releases(['mxrt@1.0.0..mxrt@4.0.0', ...SMALL, '--dir', dir]);
    expect(grown.status, grown.stderr).toBe(0);
    expect(grown.stderr).toContain('to measure: 1 window, 8 sets, 8 processes');
    expect(grown.stderr).toContain(`measuring mxrt × ${TINY}: 3.0.0, 4.0.0: 8 sets`);
    expect(grown.stdout).toContain(`mxrt × ${TINY}: 3.0.0 → 4.0.0`);
    // Redrawn without --claims, the claims kept in the folder are still drawn.
    expect(readFileSync(join(dir, 'releases.md'), 'utf8')).toContain('### Claims that changed between releases (0)');
  });

  it('refuses in one line, before the releases are listed, a folder it cannot use; and a damaged state', async () => {
    const damaged = ['damaged-1', 'damaged-2'].map((name) => {
      mkdirSync(join(scratch, name));
      writeFileSync(join(scratch, name, 'releases.state'), JSON.stringify({ schema: 'rtbench.releases', version: 1, machines: [], tracks: {} }));
      return join(scratch, name);
    });
    // The pure tests (packages/releases/test/folder.test.ts, packages/campaign/test/campaign.test.ts) hold the other cases; these two are the command's wiring.
    const [proc, broken] = await Promise.all([releases(['mxrt@1.0.0..mxrt@2.0.0', TINY, '--dir', '/proc/rtbench-matrix']), commandStreams(['merge', ...damaged, '--save', join(scratch, 'merged-damaged')])]);
    for (const r of [proc, broken]) {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(proc.stderr).toMatch(/^error: --dir \/proc\/rtbench-matrix: no file can be created in \/proc/);
    expect(broken.stderr).toContain(`${join(damaged[0]!, 'releases.state')} is damaged at identity`);
  });

  it('runs what the scheduled workflow runs: shards of whole tracks with a budget, then the merge into the page and the report', async () => {
    const ranges = ['mxrt@1.0.0..mxrt@2.0.0', 'mxrt@1.0.0..mxrt@2.0.0 --stack-size=2000'];
    const shards = await Promise.all([1, 2].map((i) => releases([...ranges, ...FEW, '--shard', `${i}/2`, '--dir', join(scratch, `shard-${i}`), '--budget', '30m'])));
    for (const s of shards) expect(s.status, s.stderr).toBe(0);
    expect(shards[0]!.stderr).toContain('(shard 1/2 of 2)');
    expect(shards[0]!.stderr).toContain(`mxrt × ${TINY}:`);
    expect(shards[1]!.stderr).toContain(`mxrt --stack-size=2000 × ${TINY}:`);
    const merged = await commandStreams(['merge', join(scratch, 'shard-1'), join(scratch, 'shard-2'), '--save', join(scratch, 'merged')]);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toContain(`mxrt × ${TINY}: 1.0.0 → 2.0.0`);
    expect(merged.stdout).toContain(`mxrt --stack-size=2000 × ${TINY}: 1.0.0 → 2.0.0`);
    for (const f of ['releases.html', 'releases.md']) expect(existsSync(join(scratch, 'merged', f))).toBe(true);
    // A budget too small for the next window: stopped before it, exit 75, continued by the same command.
    const cut = await releases([ranges[0]!, ...SMALL, '--dir', join(scratch, 'budget'), '--budget', '1ms']);
    expect(cut.status, cut.stderr).toBe(75);
    expect(cut.stderr).toContain('run the same command again to continue');
    // Bad input: one line, a usage error, nothing measured.
    const bad = await releases(['mxrt@1.0.0..mxrt@2.0.0', 'mxrt@1.0.0..mxrt@2.0.0', fixture('tiny'), '--dir', join(scratch, 'bad')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('two ranges of mxrt');
  });
});
