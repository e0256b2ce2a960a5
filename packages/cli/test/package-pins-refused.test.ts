/**
 * What an arm's package pins refuse, and a bisect over a package's versions
 * to one the registry lacks, each in one line, exit 2, nothing run:
 * the command line in the test's own process (usage-lines.ts), a CLI start
 * each cost more than the refusal. The registry on 127.0.0.1 serves the
 * manifests of the ssr suite's React packages under versions no registry
 * has (nothing here installs them); what the pins run and record end to end:
 * test/package-pins.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot, tempFile } from '../../../test/helpers/cli.ts';
import { serveLibraries, type LibraryRegistry, type ServedPackage } from '../../../test/fixtures/library-registry/registry.ts';
import { commandStreams } from './usage-lines.ts';

const SHORT = ['--rounds', '1', '--time', '30ms', '--warmup', '10ms', '--fixed-warmup', '--quiet'];
const installed = (name: string): string => realpathSync(join(repoRoot, 'bench/ssr/node_modules', name));
/** A release no registry has. */
const FAKE = '19.3.99';
/** A newer release of react and react-dom alone: a set react-server-dom-webpack cannot join. */
const HALF = '19.3.100';

let scratch: string;
let registry: LibraryRegistry;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-pins-refused-'));
  mkdirSync(join(scratch, 'empty'));
  mkdirSync(join(scratch, 'broken'));
  writeFileSync(join(scratch, 'broken', 'package.json'), '{"name": "react",\n  "version": 19\n');
  // Each package its installed manifest alone: what the registry's listing says of it, and a tarball nobody asks for.
  const listed = (name: string, version: string, rewrite?: ServedPackage['rewrite']): ServedPackage => ({ name, version, dir: installed(name), listedOnly: true, ...(rewrite ? { rewrite } : {}) });
  registry = await serveLibraries(join(scratch, 'registry'), [
    listed('react', HALF),
    listed('react-dom', HALF, (m) => void (m.peerDependencies = { react: `^${HALF}` })),
    listed('react', FAKE),
    listed('react-dom', FAKE, (m) => void (m.peerDependencies = { react: `^${FAKE}` })),
    listed('react-server-dom-webpack', FAKE, (m) => void ((m.peerDependencies = { react: `^${FAKE}`, 'react-dom': `^${FAKE}` }), (m.dependencies = {}))),
  ]);
  vi.stubEnv('npm_config_registry', registry.url);
  vi.stubEnv('npm_config_cache', join(scratch, 'npm-cache'));
  vi.stubEnv('npm_config_fetch_retries', '0');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await registry?.close();
  rmSync(scratch, { recursive: true, force: true });
});

// Moved from test/package-pins.test.ts, where each was a CLI start.
describe('packages pinned per arm, refused', () => {
  const refusals: [string, string, RegExp][] = [
    ['a package the suite does not import', 'node leftpad@1.0.0', /^node leftpad@1\.0\.0: ssr does not import leftpad \(its packages: .*react-dom.*\)$/],
    ['a folder with no package.json', 'node react=EMPTY', /^node react=\S+: \S+empty has no package\.json: name the folder of the built react package$/],
    ['a package.json that is not JSON', 'node react=BROKEN', /^node react=\S+: \S+broken\/package\.json is not valid JSON \(.*line 3.*\)$/],
    ['two versions of one package', 'node react@19.3.1 react@19.2.0', /pins react twice \(react@19\.3\.1 and react@19\.2\.0\): one version of a package per arm$/],
    ['a version the registry does not have', 'node react@99.0.0', new RegExp(`^node react@99\\.0\\.0: react has no release 99\\.0\\.0 on npm \\(the newest is ${HALF.replaceAll('.', '\\.')}\\)$`)],
    ['a set that cannot exist', `node react@${HALF}`, /^node react@19\.3\.100: the set react, react-dom, react-server-dom-webpack cannot be had at 19\.3\.100: react-server-dom-webpack, which moves with react, has no release 19\.3\.100 on npm$/],
    ['a set whose packages disagree', `node react@${FAKE} react-dom@19.3.1`, /^node react@19\.3\.99 react-dom@19\.3\.1: react@19\.3\.99 and react-dom@19\.3\.1 do not match: they are released together \(one declares the other a peer\), so an arm pins one version of both$/],
  ];
  it.each(refusals)('refuses %s in one line, exit 2, nothing run', async (_what, variant, message) => {
    const out = tempFile('refused.json');
    const r = await commandStreams(['bench', 'ssr', '--runtime', variant.replace('EMPTY', join(scratch, 'empty')).replace('BROKEN', join(scratch, 'broken')), ...SHORT, '--save', out]);
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('rtbench: asking'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.replace(/^(error|rtbench): /, '')).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  // Moved from test/library-releases.test.ts, where it was a CLI start: a bisect over a package's versions pins its ends alike.
  it('refuses a bisect to a version the registry does not have in one line, exit 2, nothing run', async () => {
    const dir = join(scratch, 'bisect-refused');
    const r = await commandStreams(['bisect', `react@${FAKE}..react@99.0.0`, 'ssr', '--filter', '/^react \\/ renderToString$/', '--dir', dir]);
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('rtbench: asking'));
    expect(lines).toEqual([`error: bisect react@${FAKE}..react@99.0.0: react has no release 99.0.0 on npm (the newest is ${HALF})`]);
    expect(existsSync(dir)).toBe(false);
  });
});
