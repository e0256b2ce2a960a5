/**
 * A package's versions as releases: `bisect react@a..react@c ssr` over a
 * registry of the test's own on 127.0.0.1 that serves three versions of
 * React: the middle one a copy whose createElement was made tens of times
 * slower, the last one slower again, several times over (a twofold step read
 * undecided under load: six sets of a render against one tens of times its
 * cost spread its interval to ×/3.5). The bisect names the middle version
 * (the larger change). The one real campaign over a package's versions: a
 * release matrix over them is the same campaign on a track named by the
 * package (packages/releases/test/matrix.test.ts, on made-up runs: the step
 * and the command that compares the two versions; --fixed-warmup reaching a
 * matrix's runs and state: packages/cli/test/releases.test.ts). Every step
 * is a planted change far beyond the 30% threshold, so no outcome rests on
 * an unchanged step reading the same (that is a false-verdict rate,
 * measured by A/A tables, not a test's outcome). Each version is served as
 * the set that moves together (react, react-dom, react-server-dom-webpack):
 * every step pins react and the other two follow it through the same pin
 * path as `--compare`. On node alone, few short rounds, each process warmed
 * for a fixed 10 ms (`--fixed-warmup`): the planted steps are far beyond a
 * warming process's drift, and no check reads a warmup.
 */
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCliAsync, unwrapped } from './helpers/cli.ts';
import { serveLibraries, type LibraryRegistry, type ServedPackage } from './fixtures/library-registry/registry.ts';

const installed = (name: string): string => realpathSync(join(repoRoot, 'bench/ssr/node_modules', name));
const LIBRARIES = join(repoRoot, '.rtbench-cache/libraries');
/** Versions no registry has: the fixture's own, removed from the cache after. */
const VERSIONS = ['19.3.90', '19.3.91', '19.3.92'];
const PLANTED = VERSIONS[1]!;
/** Iterations each version's createElement spins before it builds the element (about a thousand calls per page). */
const SPINS = [0, 2000, 16000];
/** The case alone (a filter is a substring otherwise: preact's case holds the same words). */
const CASE = '/^react \/ renderToString$/';

let scratch: string;
let registry: LibraryRegistry;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-library-releases-'));
  // The slower copies: createElement spins before it builds the element.
  const head = 'exports.createElement = function (type, config, children) {';
  const slowCopy = (spins: number): string => {
    if (spins === 0) return installed('react');
    const dir = join(scratch, `react-spins-${spins}`);
    cpSync(installed('react'), dir, { recursive: true, dereference: true });
    const file = join(dir, 'cjs', 'react.production.js');
    const source = readFileSync(file, 'utf8');
    expect(source).toContain(head);
    writeFileSync(file, source.replace(head, `var planted = 0;\n${head}\n  for (var spin = 0; spin < ${spins}; spin++) planted += Math.sqrt(spin);`));
    return dir;
  };
  const served: ServedPackage[] = VERSIONS.flatMap((version, i) => [
    { name: 'react', version, dir: slowCopy(SPINS[i]!) },
    { name: 'react-dom', version, dir: installed('react-dom'), rewrite: (m: Record<string, unknown>) => void (m.peerDependencies = { react: `^${version}` }) },
    // Its dependencies serve its webpack plugin and loaders, which no bundle here loads: left out of the fixture.
    { name: 'react-server-dom-webpack', version, dir: installed('react-server-dom-webpack'), rewrite: (m: Record<string, unknown>) => void ((m.peerDependencies = { react: `^${version}`, 'react-dom': `^${version}` }), (m.dependencies = {})) },
  ]);
  served.push({ name: 'scheduler', version: '0.28.0', dir: realpathSync(join(installed('react-dom'), '..', 'scheduler')) });
  registry = await serveLibraries(join(scratch, 'registry'), served);
  env = { npm_config_registry: registry.url, npm_config_cache: join(scratch, 'npm-cache'), npm_config_fetch_retries: '0' };
});

afterAll(async () => {
  await registry?.close();
  for (const v of VERSIONS) for (const name of ['react', 'react-dom', 'react-server-dom-webpack']) rmSync(join(LIBRARIES, `${name}@${v}`), { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const range = `react@${VERSIONS[0]}..react@${VERSIONS.at(-1)}`;

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

describe.concurrent('a package over its versions', () => {
  it('bisect names the version that made the case slower', async () => {
    const r = await runCliAsync(['bisect', range, 'ssr', '--filter', CASE, '--threshold', '30%', '--time', '40ms', '--warmup', '10ms', '--fixed-warmup', '--rounds', '6', '--max-rounds', '12', '--budget', '8m', '--timeout', '60s', '--dir', join(scratch, 'bisect')], env);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(unwrapped(r.stdout).replace(/\s+/g, ' ')).toMatch(new RegExp(`slower in react@${PLANTED.replaceAll('.', '\\.')} \\(after react@${VERSIONS[0]!.replaceAll('.', '\\.')}\\):`));
    expectFixedWarmup(join(scratch, 'bisect'), 'bisect.state');
  }, 600_000);

  it('refuses a version the registry does not have in one line, exit 2, nothing run', async () => {
    const dir = join(scratch, 'refused');
    const r = await runCliAsync(['bisect', `react@${VERSIONS[0]}..react@99.0.0`, 'ssr', '--filter', CASE, '--dir', dir], env);
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('rtbench: asking'));
    expect(lines).toEqual([`error: bisect react@${VERSIONS[0]}..react@99.0.0: react has no release 99.0.0 on npm (the newest is ${VERSIONS.at(-1)})`]);
    expect(existsSync(dir)).toBe(false);
  });
});
