/**
 * Reading saved runs starts nothing: the modules that load, check, store and
 * show a saved run (the saved-run loader, the results store, the verdicts and
 * report) and the CLI's commands that read them (report, history, compare)
 * load no module that can start a process, install or build, judged by the
 * fact (a module in the static import closure that imports `child_process`:
 * what a runtime's start, an install, a bundler and git all go through), not
 * by package names. The one exception is declared here: history asks git for
 * the order of the commits its runs recorded (host's git.ts, its own entry).
 * And the real process of such a command (bin.ts, whose command table loads
 * the named command's module alone) loads no more: every dynamic import on
 * its way followed, but those declared here with when they load.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importGraph, type ImportGraph, type Skipping } from './helpers/import-closure.ts';

const READING_ENTRIES = ['packages/saved-runs/src/index.ts', 'packages/results-store/src/index.ts', 'packages/verdicts/src/index.ts', 'packages/report/src/index.ts'];

/** The CLI's reading commands, each with the modules that start a process it may load: history's git, for its order alone. */
const READING_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  'packages/cli/src/commands/report.ts': [],
  'packages/cli/src/commands/history.ts': ['packages/host/src/git.ts'],
  'packages/cli/src/commands/compare.ts': [],
};

/** The CLI's process: its entry, and the table whose dynamic import of a command loads it when the line names it. */
const BIN = 'packages/cli/src/bin.ts';
const TABLE = 'packages/cli/src/command-table.ts';
const commandModule = (name: string): string => `packages/cli/src/commands/${name}.ts`;

/** The process of a reading command takes every dynamic import on its way but these, each loaded only when said. */
const IMPORTS_NOT_TAKEN = (graph: ImportGraph, command: string): Skipping => ({
  // The other commands.
  [TABLE]: graph.dynamicImportsOf(TABLE).filter((file) => file !== commandModule(command)),
  // The runtime plug-ins named in RTBENCH_RUNTIME_PLUGINS.
  [BIN]: ['packages/runtime-registry/src/registry.ts'],
  // Every command (--help, a line whose options come first).
  'packages/cli/src/command-run.ts': ['packages/cli/src/command-list.ts'],
  // history --runtime: the variant syntax, read by the arms, which know the plug-ins.
  [commandModule('history')]: ['packages/arms/src/index.ts'],
  // compare given a name that is no file: whether it names a runtime, asked of the plug-ins.
  [commandModule('compare')]: ['packages/runtime-registry/src/registry.ts'],
});

/** The command module of each reading command's name. */
const READING_NAMES = Object.keys(READING_COMMANDS).map((entry) => [entry.replace(/^.*\/(\w+)\.ts$/, '$1'), entry] as const);

describe('what reading a saved run loads', () => {
  let graph: ImportGraph;
  beforeAll(async () => {
    graph = await importGraph([...READING_ENTRIES, ...Object.keys(READING_COMMANDS), BIN]);
  });

  it.each(READING_ENTRIES)('%s imports no module that can start a process', (entry) => {
    const { modules, spawning } = graph.closureOf(entry);
    // The closure was followed into the workspace's packages and their dependencies, not stopped at the entry
    // (verdicts' is the smallest: 78 modules once it read runs without loading their schemas).
    expect(modules.size).toBeGreaterThan(50);
    expect(spawning).toEqual([]);
  });

  it.each(Object.entries(READING_COMMANDS))('the command %s imports no module that can start a process but %j', (entry, allowed) => {
    const { modules, spawning } = graph.closureOf(entry);
    expect(modules.size).toBeGreaterThan(100);
    expect(spawning).toEqual(allowed);
  });

  it.each(READING_NAMES)('the process `rtbench %s` loads no module that can start a process but its command\'s', (name, entry) => {
    const { modules, spawning } = graph.closureOf(BIN, IMPORTS_NOT_TAKEN(graph, name));
    // The table was reached and its dynamic import of this command followed: what the process loads when the line names it.
    expect(modules).toContain(TABLE);
    expect(graph.dynamicImportsOf(TABLE)).toContain(entry);
    expect(modules).toContain(entry);
    expect(spawning).toEqual(READING_COMMANDS[entry]);
  });

  it('fails on a spawn import planted deep in the closure, naming the module; and sees the host tools and plug-ins spawn', async () => {
    // stats' normal distribution is reached from the loader only through stats' index and its interval modules.
    const planted = { file: 'packages/stats/src/normal.ts', line: "import { spawnSync } from 'node:child_process'; void spawnSync;" };
    // A measuring command imported by the command table itself (every command's process would load it), and one loaded by report.
    const measuring = { file: TABLE, line: "import { run as planted } from './commands/run.ts'; void planted;" };
    const loaded = { file: commandModule('history'), line: "export const planted = (): Promise<unknown> => import('./bench.ts');" };
    const entries = ['packages/saved-runs/src/index.ts', 'packages/cli/src/commands/compare.ts', 'packages/host/src/tools.ts', 'packages/runtime-registry/src/registry.ts', BIN];
    const found = await importGraph(entries, [planted, measuring, loaded]);
    expect(found.closureOf('packages/saved-runs/src/index.ts').spawning).toEqual([planted.file]);
    expect(found.closureOf('packages/cli/src/commands/compare.ts').spawning).toEqual([planted.file]);
    expect(found.closureOf(BIN, IMPORTS_NOT_TAKEN(found, 'report')).spawning).toEqual(expect.arrayContaining([planted.file, 'packages/process/src/process.ts']));
    expect(found.closureOf(BIN, IMPORTS_NOT_TAKEN(found, 'history')).modules).toContain(commandModule('bench'));
    // What the loader reached before it was made to start nothing: the host's measuring tools; the plug-ins' processes.
    expect(found.closureOf('packages/host/src/tools.ts').spawning).toContain('packages/host/src/valgrind.ts');
    expect(found.closureOf('packages/runtime-registry/src/registry.ts').spawning).toContain('packages/process/src/process.ts');
  });
});
