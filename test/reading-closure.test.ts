/**
 * Reading saved runs starts nothing: the modules that load, check, store and
 * show a saved run (the saved-run loader, the results store, the verdicts and
 * report) and the CLI's commands that read them (report, history, compare)
 * load no module that can start a process, install or build, judged by the
 * fact (a module in the static import closure that imports `child_process`:
 * what a runtime's start, an install, a bundler and git all go through), not
 * by package names. The one exception is declared here: history asks git for
 * the order of the commits its runs recorded (host's git.ts, its own entry).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importClosures } from './helpers/import-closure.ts';

const READING_ENTRIES = ['packages/saved-runs/src/index.ts', 'packages/results-store/src/index.ts', 'packages/verdicts/src/index.ts', 'packages/report/src/index.ts'];

/** The CLI's reading commands, each with the modules that start a process it may load: history's git, for its order alone. */
const READING_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  'packages/cli/src/commands/report.ts': [],
  'packages/cli/src/commands/history.ts': ['packages/host/src/git.ts'],
  'packages/cli/src/commands/compare.ts': [],
};

describe('what reading a saved run loads', () => {
  let closures: Awaited<ReturnType<typeof importClosures>>;
  beforeAll(async () => {
    closures = await importClosures([...READING_ENTRIES, ...Object.keys(READING_COMMANDS)]);
  });

  it.each(READING_ENTRIES)('%s imports no module that can start a process', (entry) => {
    const { modules, spawning } = closures.get(entry)!;
    // The closure was followed into the workspace's packages and their dependencies, not stopped at the entry.
    expect(modules.size).toBeGreaterThan(100);
    expect(spawning).toEqual([]);
  });

  it.each(Object.entries(READING_COMMANDS))('the command %s imports no module that can start a process but %j', (entry, allowed) => {
    const { modules, spawning } = closures.get(entry)!;
    expect(modules.size).toBeGreaterThan(100);
    expect(spawning).toEqual(allowed);
  });

  it('fails on a spawn import planted deep in the closure, naming the module; and sees the host tools and plug-ins spawn', async () => {
    // stats' normal distribution is reached from the loader only through stats' index and its interval modules.
    const planted = { file: 'packages/stats/src/normal.ts', line: "import { spawnSync } from 'node:child_process'; void spawnSync;" };
    const entries = ['packages/saved-runs/src/index.ts', 'packages/cli/src/commands/compare.ts', 'packages/host/src/tools.ts', 'packages/runtime-registry/src/registry.ts'];
    const found = await importClosures(entries, planted);
    expect(found.get('packages/saved-runs/src/index.ts')!.spawning).toEqual([planted.file]);
    expect(found.get('packages/cli/src/commands/compare.ts')!.spawning).toEqual([planted.file]);
    // What the loader reached before it was made to start nothing: the host's measuring tools; the plug-ins' processes.
    expect(found.get('packages/host/src/tools.ts')!.spawning).toContain('packages/host/src/valgrind.ts');
    expect(found.get('packages/runtime-registry/src/registry.ts')!.spawning).toContain('packages/process/src/process.ts');
  });
});
