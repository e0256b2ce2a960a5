/**
 * The runtimes rtbench installs from npm are pinned once, in the plug-ins'
 * devDependencies: exact versions, never in dependencies (or a project that
 * installs rtbench would download every one of them), and installed in this
 * checkout's workspace, where runs find them first. No runtime is started.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceRuntimes } from '@rtbench/runtime-kit';
import { parsePin } from '../packages/runtime-kit/src/npm-runtime.ts';
import { runtimePlugins } from '@rtbench/runtime-registry';
import { repoRoot } from './helpers/cli.ts';

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifestOf = (runtime: string): Manifest => JSON.parse(readFileSync(join(repoRoot, 'runners', runtime, 'package.json'), 'utf8')) as Manifest;

describe('runtime pins', () => {
  it.each(runtimePlugins().map((r) => [r.name, r] as const))('%s: each npm runtime is an exact devDependency, installed in the workspace', (runtime, plugin) => {
    expect(plugin.npmRuntimes.length).toBeGreaterThan(0);
    const manifest = manifestOf(runtime);
    const pinnedPackages = new Set(plugin.npmRuntimes.map((rt) => rt.package));
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith('workspace:')) continue;
      expect(pinnedPackages.has(parsePin(dep, range.replace(/^[\^~]/, '')).package), `${dep} in dependencies`).toBe(false);
    }
    for (const rt of plugin.npmRuntimes) {
      expect(parsePin(rt.dependency, manifest.devDependencies![rt.dependency]!)).toEqual({ package: rt.package, version: rt.version });
      expect(workspaceRuntimes.find(rt), rt.spec).toBeDefined();
    }
  });

  it('every spec a plugin lists as from npm is one of its pinned runtimes', () => {
    for (const plugin of runtimePlugins()) {
      const pinned = plugin.npmRuntimes.map((rt) => rt.spec);
      const fromNpm = plugin.knownSpecs().filter((k) => k.note.includes(' from npm ')).map((k) => k.spec);
      expect(fromNpm.sort()).toEqual([...pinned].sort());
    }
  });
});
