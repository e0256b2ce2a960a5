/**
 * Reading saved runs starts nothing: the modules that load, check, store and
 * show a saved run (the saved-run loader, the results store, the verdicts and
 * report) load no module that can start a process, install or build, judged
 * by the fact (a module in the static import closure that imports
 * `child_process`: what a runtime's start, an install, a bundler and git all
 * go through), not by package names.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importClosures } from './helpers/import-closure.ts';

const READING_ENTRIES = ['packages/saved-runs/src/index.ts', 'packages/results-store/src/index.ts', 'packages/verdicts/src/index.ts', 'packages/report/src/index.ts'];

describe('what reading a saved run loads', () => {
  let closures: Awaited<ReturnType<typeof importClosures>>;
  beforeAll(async () => {
    closures = await importClosures(READING_ENTRIES);
  });

  it.each(READING_ENTRIES)('%s imports no module that can start a process', (entry) => {
    const { modules, spawning } = closures.get(entry)!;
    // The closure was followed into the workspace's packages and their dependencies, not stopped at the entry.
    expect(modules.size).toBeGreaterThan(100);
    expect(spawning).toEqual([]);
  });

  it('fails on a spawn import planted deep in the closure, naming the module; and sees the host tools and plug-ins spawn', async () => {
    // stats' normal distribution is reached from the loader only through stats' index and its interval modules.
    const planted = { file: 'packages/stats/src/normal.ts', line: "import { spawnSync } from 'node:child_process'; void spawnSync;" };
    const found = await importClosures(['packages/saved-runs/src/index.ts', 'packages/host/src/index.ts', 'packages/runtime-registry/src/registry.ts'], planted);
    expect(found.get('packages/saved-runs/src/index.ts')!.spawning).toEqual([planted.file]);
    // What the loader reached before it was made to start nothing: git, installs and builds in the host's index; the plug-ins' processes.
    expect(found.get('packages/host/src/index.ts')!.spawning).toContain('packages/host/src/git.ts');
    expect(found.get('packages/runtime-registry/src/registry.ts')!.spawning).toContain('packages/process/src/process.ts');
  });
});
