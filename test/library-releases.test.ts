/**
 * A package's versions as releases: `bisect lib@1.0.0..lib@3.0.0 <suite>`
 * over three versions of a tiny library (rtbench-versions-lib), each
 * already in the library cache as the library store installs it, and the
 * range listed from there (RTBENCH_NO_INSTALL: what this machine holds;
 * installing from a registry is test/package-pins.test.ts's, listing one
 * packages/cli/test/package-pins-refused.test.ts's): the middle one's call does tens
 * of times the first one's work, the last one several times the middle
 * one's. The bisect names the middle version (the larger change). The one
 * real campaign over a package's versions: a release matrix over them is the
 * same campaign on a track named by the package
 * (packages/releases/test/matrix.test.ts, on made-up runs: the step and the
 * command that compares the two versions; --fixed-warmup reaching a matrix's
 * runs and state: packages/cli/test/releases.test.ts). Every step is a
 * planted change far beyond the 30% threshold, so no outcome rests on an
 * unchanged step reading the same (that is a false-verdict rate, measured by
 * A/A tables, not a test's outcome). Each version is served as the set that
 * moves together (the library and rtbench-versions-view, which declares it a
 * peer, as react-dom does react): every step pins the library and the view
 * follows it through the same pin path as `--compare` (a set of React's
 * packages from a registry: test/package-pins.test.ts). A tiny case on node
 * alone, few short rounds, each process warmed for a fixed 10 ms
 * (`--fixed-warmup`): the planted steps are far beyond a warming process's
 * drift, and no check reads a warmup. A bisect to a version the registry
 * lacks is refused in the test's own process:
 * packages/cli/test/package-pins-refused.test.ts.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCliAsync, unwrapped } from './helpers/cli.ts';
import { seedLibraries, type ServedPackage } from './fixtures/library-registry/registry.ts';

const LIB = 'rtbench-versions-lib';
const VIEW = 'rtbench-versions-view';
const LIBRARIES = join(repoRoot, '.rtbench-cache/libraries');
/** Versions no registry has: the fixture's own, removed from the cache after. */
const VERSIONS = ['1.0.0', '2.0.0', '3.0.0'];
const PLANTED = VERSIONS[1]!;
/** How many times each version's call runs the loop: a step of 32×, then one of 8×. */
const FACTORS = [1, 32, 256];

let scratch: string;
let suite: string;
let env: Record<string, string>;

/** A package folder as installed: its package.json and one module. */
function packageDir(dir: string, manifest: Record<string, unknown>, source: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '0.0.0', type: 'module', exports: './index.js', ...manifest }));
  writeFileSync(join(dir, 'index.js'), source);
  return dir;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-library-releases-'));
  const lib = (factor: number): string =>
    packageDir(join(scratch, `lib-${factor}`), { name: LIB }, `export function work(steps) {\n  let s = 0;\n  for (let r = 0; r < ${factor}; r++) for (let i = 0; i < steps; i++) s = (s + ((i * 2654435761) >>> 0)) % 1_000_003;\n  return s;\n}\n`);
  const view = packageDir(join(scratch, 'view'), { name: VIEW }, 'export const label = (n) => `sum ${n}`;\n');
  const peer = (version: string) => (m: Record<string, unknown>) => void (m.peerDependencies = { [LIB]: `^${version}` });
  const served: ServedPackage[] = VERSIONS.flatMap((version, i) => [
    { name: LIB, version, dir: lib(FACTORS[i]!) },
    { name: VIEW, version, dir: view, rewrite: peer(version) },
  ]);
  // The suite beside the first version as installed, declaring both (a bisect over a package checks a suite that depends on it).
  const suiteDir = join(scratch, 'suite');
  cpSync(join(repoRoot, 'test/fixtures/library-registry/versions'), suiteDir, { recursive: true });
  cpSync(lib(FACTORS[0]!), join(suiteDir, 'node_modules', LIB), { recursive: true });
  cpSync(view, join(suiteDir, 'node_modules', VIEW), { recursive: true });
  for (const [name, rewrite] of [[LIB, undefined], [VIEW, peer(VERSIONS[0]!)]] as const) {
    const file = join(suiteDir, 'node_modules', name, 'package.json');
    const manifest = { ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>), version: VERSIONS[0] };
    rewrite?.(manifest);
    writeFileSync(file, JSON.stringify(manifest));
  }
  writeFileSync(join(suiteDir, 'package.json'), JSON.stringify({ name: 'library-versions', private: true, type: 'module', dependencies: { [LIB]: VERSIONS[0], [VIEW]: VERSIONS[0] } }));
  suite = join(suiteDir, 'index.ts');
  // Installed already, and listed from the cache (the library store's real installs are test/package-pins.test.ts's).
  await seedLibraries(LIBRARIES, served);
  env = { RTBENCH_NO_INSTALL: '1' };
});

afterAll(() => {
  for (const v of VERSIONS) for (const name of [LIB, VIEW]) rmSync(join(LIBRARIES, `${name}@${v}`), { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const range = `${LIB}@${VERSIONS[0]}..${LIB}@${VERSIONS.at(-1)}`;

/** --fixed-warmup reached every run the bisect saved in `dir` (a fixed warmup records no floor), and its state keeps it as part of the question. */
function expectFixedWarmup(dir: string, stateFile: string): void {
  const runs = readdirSync(dir).filter((f) => f.endsWith('.json'));
  expect(runs.length).toBeGreaterThan(0);
  for (const f of runs) {
    const options = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { options: { warmupMs: number; warmupMinMs?: number } }).options;
    expect({ file: f, warmupMs: options.warmupMs, warmupMinMs: options.warmupMinMs }).toEqual({ file: f, warmupMs: 10, warmupMinMs: undefined });
  }
  expect((JSON.parse(readFileSync(join(dir, stateFile), 'utf8')) as { identity: { fixedWarmup?: boolean } }).identity.fixedWarmup).toBe(true);
}

/** Each saved run's arms pinned the library and the view at one version, the view following the library. */
function expectSetsFollowed(dir: string): void {
  const runs = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const pinned = runs.flatMap((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { variants: { packages?: { name: string; version: string; follows?: string }[] }[] }).variants.map((v) => v.packages ?? []));
  expect(pinned.length).toBeGreaterThan(0);
  for (const packages of pinned) {
    expect(packages.map((p) => [p.name, p.follows])).toEqual([[LIB, undefined], [VIEW, LIB]]);
    expect(packages[1]!.version).toBe(packages[0]!.version);
  }
}

describe('a package over its versions', () => {
  it('bisect names the version that made the case slower', async () => {
    const r = await runCliAsync(['bisect', range, suite, '--filter', 'library call', '--threshold', '30%', '--time', '10ms', '--warmup', '10ms', '--fixed-warmup', '--rounds', '6', '--max-rounds', '12', '--budget', '8m', '--timeout', '60s', '--dir', join(scratch, 'bisect')], env);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(unwrapped(r.stdout).replace(/\s+/g, ' ')).toMatch(new RegExp(`slower in ${LIB}@${PLANTED.replaceAll('.', '\\.')} \\(after ${LIB}@${VERSIONS[0]!.replaceAll('.', '\\.')}\\):`));
    expectFixedWarmup(join(scratch, 'bisect'), 'bisect.state');
    expectSetsFollowed(join(scratch, 'bisect'));
  }, 600_000);
});
