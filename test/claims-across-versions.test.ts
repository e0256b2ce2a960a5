/**
 * `claims --across` over two versions of a package, end to end on node: a
 * fixture suite that imports a small library (test/fixtures/claims-library),
 * two versions of it in the library cache already and listed from there
 * (RTBENCH_NO_INSTALL; installing is test/package-pins.test.ts's), the
 * first doing 64 times the work of the inline loop and the second the
 * same; the claim that the library's call costs at least 8× the loop holds
 * on the first and breaks on the second, each version's outcome saved in its
 * run and printed as claims × versions, with the bisect command between them.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { repoRoot, runCliAsync, unwrapped } from './helpers/cli.ts';
import { seedLibraries } from './fixtures/library-registry/registry.ts';

const FIXTURE = join(repoRoot, 'test/fixtures/claims-library');
const LIBRARY = 'rtbench-claims-lib';
const LIBRARIES = join(repoRoot, '.rtbench-cache/libraries');
/** Versions no registry has: the fixture's own, removed from the cache after. */
const [SLOW, SAME] = ['1.0.0', '2.0.0'] as const;

let scratch: string;
let result: { status: number | null; stdout: string; stderr: string };
let dir: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-claims-versions-'));
  // The suite beside its library as installed, declaring it (claims --across checks a suite that depends on the package).
  const suite = join(scratch, 'suite');
  cpSync(join(FIXTURE, 'suite'), suite, { recursive: true });
  cpSync(join(FIXTURE, 'lib'), join(suite, 'node_modules', LIBRARY), { recursive: true });
  writeFileSync(join(suite, 'package.json'), JSON.stringify({ name: 'claims-library', private: true, type: 'module', dependencies: { [LIBRARY]: SLOW } }));
  // The later version's call does the loop once.
  const same = join(scratch, 'same');
  cpSync(join(FIXTURE, 'lib'), same, { recursive: true });
  const source = readFileSync(join(same, 'index.js'), 'utf8');
  expect(source).toContain('const FACTOR = 64;');
  writeFileSync(join(same, 'index.js'), source.replace('const FACTOR = 64;', 'const FACTOR = 1;'));
  const versions = [
    { name: LIBRARY, version: SLOW, dir: join(FIXTURE, 'lib') },
    { name: LIBRARY, version: SAME, dir: same },
  ];
  // Installed already, and listed from the cache (the library store's real installs are test/package-pins.test.ts's).
  await seedLibraries(LIBRARIES, versions);
  dir = join(scratch, 'claims');
  const env = { RTBENCH_NO_INSTALL: '1' };
  // 64× the work and the same against the 8× claim, far from it on both sides (8× against a 4× claim once read undecided
  // after 10 rounds beside the whole suite at load 25–30); a claim still undecided gets more pairs, up to 24 (a decided
  // one stops at 6). Each process warmed a fixed 10 ms (--fixed-warmup): 64× and 1× are far beyond a warming process's
  // drift, and the watched warmup was half the file's CPU.
  result = await runCliAsync(['claims', join(suite, 'index.ts'), '--across', `${LIBRARY}@${SLOW},${LIBRARY}@${SAME}`, '--rounds', '6', '--max-rounds', '24', '--time', '10ms', '--warmup', '10ms', '--fixed-warmup', '--save', dir], env);
}, 600_000);

afterAll(() => {
  for (const v of [SLOW, SAME]) rmSync(join(LIBRARIES, `${LIBRARY}@${v}`), { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('claims across versions of a package', () => {
  it('saves each version\'s run with its pinned version and the claim\'s outcome on it', () => {
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(1); // broken on the later version
    const runs = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => parseRun(JSON.parse(readFileSync(join(dir, f), 'utf8')), f));
    const byVersion = new Map(runs.map((run) => [run.variants.flatMap((v) => v.packages ?? []).find((p) => p.name === LIBRARY)?.version, run.claims?.outcomes.map((o) => o.word)]));
    expect(Object.fromEntries(byVersion)).toEqual({ [SLOW]: ['held'], [SAME]: ['broken'] });
  });

  it('prints claims × versions, the claim that flipped, and the bisect command between the two', () => {
    const out = unwrapped(result.stdout).replace(/\s+/g, ' ');
    expect(out).toContain(`claims × ${LIBRARY}@${SLOW}, ${LIBRARY}@${SAME}`);
    expect(out).toMatch(/held\s+broken\s+claims-library: The library's call costs at least 8× the inline loop/);
    // The claim that flipped, and between which columns (the same line a flip between runtime releases prints).
    expect(out).toContain(`flipped claims-library: The library's call costs at least 8× the inline loop`);
    expect(out).toMatch(new RegExp(`held on ${LIBRARY}@${SLOW.replaceAll('.', '\\.')}, broken on ${LIBRARY}@${SAME.replaceAll('.', '\\.')}\\. Where it changed:`));
    expect(out).toContain(`npx pnpm rtbench bisect '${LIBRARY}@${SLOW}..${LIBRARY}@${SAME} node'`);
  });
});
