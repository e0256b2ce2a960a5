/**
 * Pins are read from the bundle the run then runs (package-pins.ts,
 * suite-code.ts): the plan lists the suite's packages from the unpinned
 * arm's bundle, and the run takes that bundle once instead of making it
 * again. A scratch suite whose text changes between plan and run shows
 * which bundle each asks got. Only esbuild runs (and git on the pinned
 * folder); no runtime is resolved or started.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RuntimeTarget } from '@rtbench/runtime-kit';
import { pluginNamed, type ResolvedVariant } from '@rtbench/runtime-registry';
import { repoRoot, type SuiteLocation } from '@rtbench/suite-loader';
import { pinPackages } from '../src/package-pins.ts';
import { suiteBundle } from '../../measurers/src/suite-code.ts';
import { parseVariant } from '../src/variants.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-pins-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** React as the workspace installed it (the root's devDependency), imported by path so a suite outside the checkout finds it. */
const react = realpathSync(join(repoRoot, 'node_modules', 'react'));
const suite: SuiteLocation = { name: 'pins-one-bundle', entry: join(dir, 'suite.ts') };
const writeSuite = (marker: string): void =>
  writeFileSync(suite.entry, `import React from ${JSON.stringify(join(react, 'index.js'))};\nexport default { marker: ${JSON.stringify(marker)}, version: React.version };\n`);

const node = pluginNamed('node')!;
/** A variant as resolving it would give, without probing a binary: pinPackages reads its spec and plugin and writes its record. */
const armOf = (text: string): ResolvedVariant => ({ spec: parseVariant(text), plugin: node, target: {} as RuntimeTarget, flags: { args: [], env: {} }, record: {} as ResolvedVariant['record'] });

describe('pins and the bundle a run runs', () => {
  it('records the pin from the unpinned arm bundle, which the run then takes once', async () => {
    writeSuite('planned');
    const plain = armOf('node');
    const pinned = armOf(`node react=${react}`);
    await pinPackages(suite, [plain, pinned]);
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
