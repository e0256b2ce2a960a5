/**
 * Packages pinned per arm, end to end on node: a local build of React is
 * what its arm bundled (a copy altered to render differently is caught by
 * the digest), react-dom follows react unless named, a version from a
 * registry on 127.0.0.1 is installed with its integrity recorded (that, once
 * cached, it is pinned with no registry to ask is
 * packages/arms/test/pins-one-bundle.test.ts's, in its own process). Short
 * runs; only outcomes count.
 * What pins refuse (one line, exit 2, nothing run) is asked in the test's
 * own process: packages/cli/test/package-pins-refused.test.ts.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { repoRoot, runCliAsync, tempFile } from './helpers/cli.ts';
import { serveLibraries, type LibraryRegistry } from './fixtures/library-registry/registry.ts';

const SHORT = ['--rounds', '1', '--time', '30ms', '--warmup', '10ms', '--fixed-warmup', '--quiet'];
const installed = (name: string): string => realpathSync(join(repoRoot, 'bench/ssr/node_modules', name));
const LIBRARIES = join(repoRoot, '.rtbench-cache/libraries');
/** A release no registry has: the fixture's own, removed from the cache after. */
const FAKE = '19.3.99';
/** A newer release of react and react-dom alone: a set react-server-dom-webpack cannot join. */
const HALF = '19.3.100';
const SET = ['react', 'react-dom', 'react-server-dom-webpack'];

let scratch: string;
let registry: LibraryRegistry;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-pins-'));
  for (const copy of ['plain', 'altered']) {
    for (const name of SET) cpSync(installed(name), join(scratch, copy, name), { recursive: true, dereference: true });
  }
  // The altered copy writes another text separator: the same page, other HTML.
  const cjs = join(scratch, 'altered', 'react-dom', 'cjs');
  for (const file of readdirSync(cjs)) writeFileSync(join(cjs, file), readFileSync(join(cjs, file), 'utf8').replaceAll('\\x3c!-- --\\x3e', '\\x3c!--pinned--\\x3e'));
  registry = await serveLibraries(join(scratch, 'registry'), [
    // Listed only: 19.3.x resolves past them to the newest whole set, so their tarballs are never fetched.
    { name: 'react', version: HALF, dir: installed('react'), listedOnly: true },
    { name: 'react-dom', version: HALF, dir: installed('react-dom'), listedOnly: true, rewrite: (m) => void (m.peerDependencies = { react: `^${HALF}` }) },
    { name: 'react', version: FAKE, dir: installed('react') },
    { name: 'react-dom', version: FAKE, dir: installed('react-dom'), rewrite: (m) => void (m.peerDependencies = { react: `^${FAKE}` }) },
    // Its dependencies serve its webpack plugin and loaders, which no bundle here loads: left out of the fixture.
    { name: 'react-server-dom-webpack', version: FAKE, dir: installed('react-server-dom-webpack'), rewrite: (m) => void ((m.peerDependencies = { react: `^${FAKE}`, 'react-dom': `^${FAKE}` }), (m.dependencies = {})) },
    { name: 'scheduler', version: '0.28.0', dir: realpathSync(join(installed('react-dom'), '..', 'scheduler')) },
  ]);
});

afterAll(async () => {
  await registry?.close();
  for (const name of SET) for (const version of [FAKE, HALF]) rmSync(join(LIBRARIES, `${name}@${version}`), { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

const readRun = (file: string): RunRecord => parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
const digestOf = (run: RunRecord, caseId: string, variantId: string): string | undefined => run.results.find((r) => r.caseId === caseId && r.variantId === variantId)?.rounds[0]?.digest.hash;

/** The registry's set, as an arm pins it. */
const FROM_REGISTRY = 'node react@19.3.x';
const registryEnv = (): Record<string, string> => ({ npm_config_registry: registry.url, npm_config_cache: join(scratch, 'npm-cache'), npm_config_fetch_retries: '0' });

// One run holds every arm (a run per arm cost a CLI start, a bundle and a node process each): node as installed, the
// local build and its altered copy, and the version set from the registry.
describe('packages pinned per arm', () => {
  let pinned: { run: RunRecord; status: number | null; stdout: string; stderr: string };
  const plain = (): string => `node react=${join(scratch, 'plain', 'react')}`;
  const altered = (): string => `node react=${join(scratch, 'altered', 'react')}`;
  beforeAll(async () => {
    const out = tempFile('pins.json');
    const r = await runCliAsync(['bench', 'ssr', '--runtime', ['node', plain(), altered(), FROM_REGISTRY].join(','), '--filter', 'renderToString', ...SHORT, '--save', out], registryEnv());
    pinned = { ...r, run: readRun(out) };
  });

  it('bundles a local build for its arm alone, react-dom following react, and the digest tells an altered copy apart', () => {
    const { run, status, stderr } = pinned;
    const [plainArm, alteredArm] = [plain(), altered()];
    expect(status, stderr).toBe(1); // the altered copy's HTML is other work
    const packages = run.variants.find((v) => v.id === plainArm)!.packages!;
    expect(packages.map((p) => [p.name, p.version, p.path, p.follows])).toEqual([
      ['react', '19.3.1', join(scratch, 'plain', 'react'), undefined],
      ['react-dom', '19.3.1', join(scratch, 'plain', 'react-dom'), 'react'],
      ['react-server-dom-webpack', '19.3.1', join(scratch, 'plain', 'react-server-dom-webpack'), 'react'],
    ]);
    for (const p of packages) expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    const react = 'react / renderToString';
    expect(digestOf(run, react, plainArm)).toBe(digestOf(run, react, 'node'));
    expect(digestOf(run, react, alteredArm)).toBeDefined();
    expect(digestOf(run, react, alteredArm)).not.toBe(digestOf(run, react, 'node'));
    // Preact imports no React: the same HTML in every arm.
    expect(digestOf(run, 'preact / renderToString', alteredArm)).toBe(digestOf(run, 'preact / renderToString', 'node'));
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual([react]);
    // Each pinning arm had a bundle of its own.
    expect(run.suiteCode!.map((c) => c.variants)).toEqual([['node'], [plainArm], [alteredArm], [FROM_REGISTRY]]);
  });

  it('resolves a version set as one from the registry, records each integrity, and prints them beside the engine', () => {
    const { run, stdout } = pinned;
    // 19.3.x: the newest release every member of the set has (react and react-dom have a newer one, HALF, not the whole set).
    expect(run.variants.find((v) => v.id === FROM_REGISTRY)!.packages!.map((p) => [p.name, p.version, p.integrity, p.follows])).toEqual([
      ['react', FAKE, registry.integrity.get(`react@${FAKE}`), undefined],
      ['react-dom', FAKE, registry.integrity.get(`react-dom@${FAKE}`), 'react'],
      ['react-server-dom-webpack', FAKE, registry.integrity.get('react-server-dom-webpack'), 'react'],
    ]);
    expect(stdout).toContain(`react ${FAKE} (${registry.integrity.get(`react@${FAKE}`)!.slice(0, 19)}…)`);
    expect(stdout.replace(/\s+/g, ' ')).toContain(`react-server-dom-webpack ${FAKE} (${registry.integrity.get('react-server-dom-webpack')!.slice(0, 19)}…)`);
    expect(digestOf(run, 'react / renderToString', FROM_REGISTRY)).toBe(digestOf(run, 'react / renderToString', 'node'));
    // That a set the cache holds is pinned with no registry to ask is packages/arms/test/pins-one-bundle.test.ts's.
  });
});
