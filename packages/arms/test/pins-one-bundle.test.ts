/**
 * Pins are read from the bundle the run then runs (package-pins.ts,
 * suite-code.ts): the plan lists the suite's packages from the unpinned
 * arm's bundle, or when every arm pins from the first arm's own pinned
 * bundle, and the run takes that bundle once instead of making it again.
 * A scratch suite whose text changes between plan and run shows which
 * bundle each asks got; a counting bundler port shows how many were made.
 * Only esbuild runs (and git on the pinned folders); no runtime is resolved
 * or started.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeTarget } from '@rtbench/runtime-kit';
import { pluginNamed, type ResolvedVariant } from '@rtbench/runtime-registry';
import { LibraryStore } from '@rtbench/host/installs';
import { repoRoot, storePolicy, type SuiteLocation } from '@rtbench/suite-loader';
import { listBundler, pinPackages, type PinsBundler, type VersionsOf } from '../src/package-pins.ts';
import { bundledPackagesAhead, suiteBundle } from '../../measurers/src/suite-code.ts';
import { parseVariant } from '../src/variants.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-pins-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** React as the workspace installed it (the root's devDependency), imported by path so a suite outside the checkout finds it. */
const react = realpathSync(join(repoRoot, 'node_modules', 'react'));
const suite: SuiteLocation = { name: 'pins-one-bundle', entry: join(dir, 'suite.ts') };
const writeSuite = (marker: string): void =>
  writeFileSync(suite.entry, `import React from ${JSON.stringify(join(react, 'index.js'))};\nexport default { marker: ${JSON.stringify(marker)}, version: React.version };\n`);

const node = pluginNamed('node')!;
/** The command's bundler: the bundle read for the list is the one the run then takes. */
const suiteBundler: PinsBundler = { ...listBundler, ahead: bundledPackagesAhead };
/** A variant as resolving it would give, without probing a binary: pinPackages reads its spec and plugin and writes its record. */
const armOf = (text: string): ResolvedVariant => ({ spec: parseVariant(text), plugin: node, target: {} as RuntimeTarget, flags: { args: [], env: {} }, record: {} as ResolvedVariant['record'] });

describe('pins and the bundle a run runs', () => {
  it('records the pin from the unpinned arm bundle, which the run then takes once', async () => {
    writeSuite('planned');
    const plain = armOf('node');
    const pinned = armOf(`node react=${react}`);
    await pinPackages(suite, [plain, pinned], undefined, suiteBundler);
    expect(plain.record.packages).toBeUndefined();
    const version = (JSON.parse(readFileSync(join(react, 'package.json'), 'utf8')) as { version: string }).version;
    expect(pinned.record.packages?.map((p) => [p.name, p.version, p.path])).toEqual([['react', version, react]]);
    expect(pinned.record.packages?.[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);

    writeSuite('edited');
    const taken = await suiteBundle(suite, node, { nodeEnv: undefined, packages: [] });
    expect(readFileSync(taken.path, 'utf8')).toContain('"planned"');
    // Taken once: the next asks bundles the suite as it is now, as does the pinned arm's build.
    const again = await suiteBundle(suite, node, { nodeEnv: undefined, packages: [] });
    expect(readFileSync(again.path, 'utf8')).toContain('"edited"');
    const pinnedBuild = await suiteBundle(suite, node, { nodeEnv: undefined, packages: [{ name: 'react', dir: react }] });
    expect(readFileSync(pinnedBuild.path, 'utf8')).toContain('"edited"');
  });
});

describe('when every arm pins', () => {
  // A scratch project importing react and react-dom by name, as a suite in bench/ does, and two local builds of both.
  const project = join(dir, 'project');
  const every: SuiteLocation = { name: 'pins-every-arm', entry: join(project, 'suite.ts') };
  const writeEvery = (marker: string): void =>
    writeFileSync(every.entry, `import React from 'react';\nimport { renderToString } from 'react-dom/server';\nexport default { marker: ${JSON.stringify(marker)}, html: renderToString(React.createElement('p', null, 'x')) };\n`);
  const builds = (copy: string): string => join(dir, copy, 'react');
  const reactDom = realpathSync(join(repoRoot, 'node_modules', 'react-dom'));
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(react, join(project, 'node_modules', 'react'));
  symlinkSync(reactDom, join(project, 'node_modules', 'react-dom'));
  for (const copy of ['a', 'b']) {
    cpSync(react, join(dir, copy, 'react'), { recursive: true, dereference: true });
    cpSync(reactDom, join(dir, copy, 'react-dom'), { recursive: true, dereference: true });
  }

  /** The real bundler, counted. */
  const counted = (): PinsBundler & { made: string[] } => {
    const made: string[] = [];
    return {
      made,
      ahead: (...args) => (made.push('ahead'), suiteBundler.ahead(...args)),
      alone: (...args) => (made.push('alone'), suiteBundler.alone(...args)),
    };
  };
  const recordOf = (v: ResolvedVariant) => v.record.packages?.map((p) => [p.name, p.version, p.path, p.follows, p.sha256]);

  it("lists the suite's packages from the first arm's bundle, which the run takes, and pins as the unpinned list does", async () => {
    writeEvery('planned');
    const [a, b] = [armOf(`node react=${builds('a')}`), armOf(`node react=${builds('b')}`)];
    const bundler = counted();
    await pinPackages(every, [a, b], undefined, bundler);
    // One bundle, the first arm's own: none made for the list alone.
    expect(bundler.made).toEqual(['ahead']);
    expect(a.record.packages?.map((p) => [p.name, p.path, p.follows])).toEqual([
      ['react', builds('a'), undefined],
      ['react-dom', join(dir, 'a', 'react-dom'), 'react'],
    ]);

    writeEvery('edited');
    const build = (v: ResolvedVariant) => ({ nodeEnv: undefined, packages: v.record.packages!.map((p) => ({ name: p.name, dir: p.dir })) });
    expect(readFileSync((await suiteBundle(every, node, build(a))).path, 'utf8')).toContain('"planned"');
    expect(readFileSync((await suiteBundle(every, node, build(b))).path, 'utf8')).toContain('"edited"');

    // The same records as from the suite bundled unpinned: for the list alone, or an unpinned arm's.
    const alone = counted();
    const [a2, b2] = [armOf(`node react=${builds('a')}`), armOf(`node react=${builds('b')}`)];
    await pinPackages(every, [a2, b2], undefined, { ...alone, ahead: () => Promise.reject(new Error('not this bundle')) });
    expect(alone.made).toEqual(['alone']);
    const [plain, a3] = [armOf('node'), armOf(`node react=${builds('a')}`)];
    await pinPackages(every, [plain, a3], undefined, suiteBundler);
    expect([recordOf(a2), recordOf(b2), recordOf(a3)]).toEqual([recordOf(a), recordOf(b), recordOf(a)]);
  });

  it('takes the bundle of an arm that sets NODE_ENV to the value an unset one gets, and no other', async () => {
    writeEvery('planned');
    const build = (nodeEnv: string | undefined, v: ResolvedVariant) => ({ nodeEnv, packages: (v.record.packages ?? []).map((p) => ({ name: p.name, dir: p.dir })) });
    const bundler = counted();
    const [a, b] = [armOf(`node NODE_ENV=production react=${builds('a')}`), armOf(`node react=${builds('b')}`)];
    await pinPackages(every, [a, b], undefined, bundler);
    expect(bundler.made).toEqual(['ahead']);
    writeEvery('edited');
    expect(readFileSync((await suiteBundle(every, node, build('production', a))).path, 'utf8')).toContain('"planned"');

    // An arm that pins nothing, with NODE_ENV the default, lists them; one set to another value does not.
    writeEvery('planned');
    const plain = counted();
    const [p, d] = [armOf('node NODE_ENV=production'), armOf(`node NODE_ENV=development react=${builds('a')}`)];
    await pinPackages(every, [p, d], undefined, plain);
    expect(plain.made).toEqual(['ahead']);
    expect(readFileSync((await suiteBundle(every, node, build('production', p))).path, 'utf8')).toContain('"planned"');
    const development = counted();
    const [a2, b2] = [armOf(`node NODE_ENV=development react=${builds('a')}`), armOf(`node react=${builds('b')}`)];
    await pinPackages(every, [a2, b2], undefined, development);
    expect(development.made).toEqual(['alone']);
    // The same records on every path: from the first arm's bundle, the unpinned arm's, and the list-alone one.
    expect([recordOf(a), recordOf(b)]).toEqual([recordOf(d), recordOf(b2)]);
    expect(recordOf(a2)).toEqual(recordOf(a));
  });

  /**
   * A workspace package (linked, outside any node_modules) importing react and react-dom from its own node_modules
   * (the copies in `from`), and a suite that sees only the workspace packages it is given.
   */
  const workspaceLib = (name: string, from: { react: string; reactDom: string }): string => {
    const lib = join(dir, name);
    mkdirSync(join(lib, 'node_modules'), { recursive: true });
    writeFileSync(join(lib, 'package.json'), JSON.stringify({ name, version: '0.0.0', type: 'module', main: 'index.js', dependencies: { react: '*', 'react-dom': '*' } }));
    writeFileSync(join(lib, 'index.js'), `import React from 'react';\nimport { renderToString } from 'react-dom/server';\nexport const html = () => renderToString(React.createElement('p', null, 'x'));\n`);
    symlinkSync(from.react, join(lib, 'node_modules', 'react'));
    symlinkSync(from.reactDom, join(lib, 'node_modules', 'react-dom'));
    return lib;
  };
  const suiteThrough = (name: string, libs: readonly string[]): SuiteLocation => {
    const folder = join(dir, name);
    mkdirSync(join(folder, 'node_modules'), { recursive: true });
    for (const lib of libs) symlinkSync(lib, join(folder, 'node_modules', basename(lib)));
    const imports = libs.map((lib, i) => `import { html as html${i} } from '${basename(lib)}';`).join('\n');
    writeFileSync(join(folder, 'suite.ts'), `${imports}\nexport default { html: [${libs.map((_, i) => `html${i}()`).join(', ')}] };\n`);
    return { name, entry: join(folder, 'suite.ts') };
  };
  /** The records two arms pinning builds a and b get, and the bundles made for them. */
  const pinTwo = async (suite: SuiteLocation, bundler: PinsBundler) => {
    const arms = [armOf(`node react=${builds('a')}`), armOf(`node react=${builds('b')}`)];
    await pinPackages(suite, arms, undefined, bundler);
    return arms.map(recordOf);
  };
  const aloneOnly = (made: string[]): PinsBundler => ({ ahead: () => Promise.reject(new Error('not this bundle')), alone: (...args) => (made.push('alone'), suiteBundler.alone(...args)) });

  it('finds a pin the suite imports only through a workspace package from that package, in one bundle', async () => {
    const through = suiteThrough('through', [workspaceLib('workspace-lib', { react, reactDom })]);
    const bundler = counted();
    const records = await pinTwo(through, bundler);
    expect(bundler.made).toEqual(['ahead']);
    expect(records[0]?.map(([name, , path, follows]) => [name, path, follows])).toEqual([
      ['react', builds('a'), undefined],
      ['react-dom', join(dir, 'a', 'react-dom'), 'react'],
    ]);
    // The same records as from the suite bundled for the list alone.
    const made: string[] = [];
    expect(await pinTwo(through, aloneOnly(made))).toEqual(records);
    expect(made).toEqual(['alone']);
  });

  it('bundles for the list alone, as if never guessed, when two workspace packages find two copies of a pin', async () => {
    const copies = suiteThrough('two-copies', [workspaceLib('lib-one', { react, reactDom }), workspaceLib('lib-two', { react: builds('b'), reactDom })]);
    const bundler = counted();
    const records = await pinTwo(copies, bundler);
    // The records are the list-alone bundle's: the guess left no trace.
    expect(bundler.made).toEqual(['ahead', 'alone']);
    expect(records.map((r) => r?.map(([name, , path]) => [name, path]))).toEqual([
      [['react', builds('a')], ['react-dom', join(dir, 'a', 'react-dom')]],
      [['react', builds('b')], ['react-dom', join(dir, 'b', 'react-dom')]],
    ]);
  });

  // Moved from test/package-pins.test.ts, where it was a second CLI run with the registry's port closed.
  it('pins a set the cache holds, each in its own entry, without asking the registry, the followers at its version', async () => {
    writeEvery('planned');
    const held = '19.3.98';
    // npm's install, faked: the workspace's package at the held version, as the store's get leaves it (with its record).
    const libraries = new LibraryStore({
      ...storePolicy('libraries'),
      log: () => {},
      installer: {
        async install(pkg, version, into) {
          const target = join(into, 'node_modules', pkg);
          cpSync(pkg === 'react' ? react : reactDom, target, { recursive: true, dereference: true });
          const manifest = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { version: string; peerDependencies?: Record<string, string> };
          writeFileSync(join(target, 'package.json'), JSON.stringify({ ...manifest, version, ...(manifest.peerDependencies ? { peerDependencies: { react: `^${version}` } } : {}) }));
        },
        command: () => 'npm install',
      },
    });
    const entries = await Promise.all(['react', 'react-dom'].map((name) => libraries.get(name, held)));
    const asked: string[] = [];
    const registry: VersionsOf = (name) => (asked.push(name), Promise.reject(new Error('the registry was asked')));
    try {
      const arm = armOf(`node react@${held}`);
      await pinPackages(every, [arm], registry, counted());
      expect(asked).toEqual([]);
      expect(arm.record.packages?.map((p) => [p.name, p.version, p.follows])).toEqual([
        ['react', held, undefined],
        ['react-dom', held, 'react'],
      ]);
      // Any member missing from the cache: the registry is asked for the set.
      rmSync(entries[1]!.root, { recursive: true, force: true });
      await expect(pinPackages(every, [armOf(`node react@${held}`)], registry, counted())).rejects.toThrow('the registry was asked');
      expect([...new Set(asked)]).toEqual(['react']);
    } finally {
      for (const entry of entries) rmSync(entry.root, { recursive: true, force: true });
    }
  });

  it('bundles the suite for the list alone when a pin is not among what that bundle holds, and says it as before', async () => {
    writeEvery('planned');
    const bundler = counted();
    const arms = [armOf(`node react=${builds('a')}`), armOf('node left-pad@1.3.0')];
    await expect(pinPackages(every, arms, undefined, bundler)).rejects.toThrow(/^node left-pad@1\.3\.0: pins-every-arm does not import left-pad \(its packages: react, react-dom\)$/);
    expect(bundler.made).toEqual(['ahead', 'alone']);
  });
});
