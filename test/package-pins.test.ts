/**
 * Packages pinned per arm, end to end on node: a local build of React is
 * what its arm bundled (a copy altered to render differently is caught by
 * the digest), react-dom follows react unless named, a version from a
 * registry on 127.0.0.1 is installed with its integrity recorded (and, once
 * cached, runs with no registry to ask). Short runs; only outcomes count.
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

describe.concurrent('packages pinned per arm', () => {
  it('bundles a local build for its arm alone, react-dom following react, and the digest tells an altered copy apart', async () => {
    const out = tempFile('pins.json');
    const plain = `node react=${join(scratch, 'plain', 'react')}`;
    const altered = `node react=${join(scratch, 'altered', 'react')}`;
    const r = await runCliAsync(['bench', 'ssr', '--runtime', `node,${plain},${altered}`, '--filter', 'renderToString', ...SHORT, '--save', out]);
    expect(r.status, r.stderr).toBe(1); // the altered copy's HTML is other work
    const run = readRun(out);
    const pinned = run.variants.find((v) => v.id === plain)!.packages!;
    expect(pinned.map((p) => [p.name, p.version, p.path, p.follows])).toEqual([
      ['react', '19.3.1', join(scratch, 'plain', 'react'), undefined],
      ['react-dom', '19.3.1', join(scratch, 'plain', 'react-dom'), 'react'],
      ['react-server-dom-webpack', '19.3.1', join(scratch, 'plain', 'react-server-dom-webpack'), 'react'],
    ]);
    for (const p of pinned) expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    const react = 'react / renderToString';
    expect(digestOf(run, react, plain)).toBe(digestOf(run, react, 'node'));
    expect(digestOf(run, react, altered)).toBeDefined();
    expect(digestOf(run, react, altered)).not.toBe(digestOf(run, react, 'node'));
    // Preact imports no React: the same HTML in every arm.
    expect(digestOf(run, 'preact / renderToString', altered)).toBe(digestOf(run, 'preact / renderToString', 'node'));
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual([react]);
    // Each pinning arm had a bundle of its own.
    expect(run.suiteCode!.map((c) => c.variants)).toEqual([['node'], [plain], [altered]]);
  });

  it('resolves a version set as one from the registry, records each integrity, and prints them beside the engine', async () => {
    const out = tempFile('pins-npm.json');
    const env = { npm_config_registry: registry.url, npm_config_cache: join(scratch, 'npm-cache'), npm_config_fetch_retries: '0' };
    const r = await runCliAsync(['bench', 'ssr', '--compare', 'node', 'react@19.3.x', '--filter', 'react / renderToString', '--rounds', '2', '--time', '30ms', '--warmup', '10ms', '--fixed-warmup', '--save', out], env);
    expect(r.status, r.stderr).toBe(0);
    const run = readRun(out);
    // 19.3.x: the newest release every member of the set has (react and react-dom have a newer one, HALF, not the whole set).
    expect(run.variants[1]!.packages!.map((p) => [p.name, p.version, p.integrity, p.follows])).toEqual([
      ['react', FAKE, registry.integrity.get(`react@${FAKE}`), undefined],
      ['react-dom', FAKE, registry.integrity.get(`react-dom@${FAKE}`), 'react'],
      ['react-server-dom-webpack', FAKE, registry.integrity.get('react-server-dom-webpack'), 'react'],
    ]);
    expect(r.stdout).toContain(`react ${FAKE} (${registry.integrity.get(`react@${FAKE}`)!.slice(0, 19)}…)`);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`react-server-dom-webpack ${FAKE} (${registry.integrity.get('react-server-dom-webpack')!.slice(0, 19)}…)`);
    expect(digestOf(run, 'react / renderToString', 'react@19.3.x')).toBe(digestOf(run, 'react / renderToString', 'node'));
    // The release is in the cache now: pinned exactly, it runs with no registry to ask (a closed port).
    const offline = { ...env, npm_config_registry: 'http://127.0.0.1:9/' };
    const again = await runCliAsync(['bench', 'ssr', '--runtime', `node react@${FAKE}`, '--filter', 'react / renderToString', ...SHORT, '--save', tempFile('pins-offline.json')], offline);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('asking the npm registry');
  });
});
