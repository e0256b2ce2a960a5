/**
 * Every rtbench command by name, in the order --help lists them, each module
 * loaded only when its command is wanted: a line that names its command loads
 * that command (and what it imports) alone, so reading a saved run (report,
 * history, compare) loads no measuring code. Each command is declared in its
 * own module (commands/<name>.ts: its arguments, options, help and run).
 */
import type { Command } from './options/command.ts';

const LOADERS = {
  bench: async () => (await import('./commands/bench.ts')).bench,
  run: async () => (await import('./commands/run.ts')).run,
  compare: async () => (await import('./commands/compare.ts')).compare,
  merge: async () => (await import('./commands/merge.ts')).merge,
  report: async () => (await import('./commands/report.ts')).report,
  history: async () => (await import('./commands/history.ts')).history,
  bisect: async () => (await import('./commands/bisect.ts')).bisect,
  releases: async () => (await import('./commands/releases.ts')).releases,
  claims: async () => (await import('./commands/claims.ts')).claims,
  runtimes: async () => (await import('./commands/runtimes.ts')).runtimes,
  suites: async () => (await import('./commands/suites.ts')).suites,
} as const satisfies Readonly<Record<string, () => Promise<Command>>>;

export const COMMAND_NAMES: readonly string[] = Object.keys(LOADERS);

/** The command named `name`, its module loaded; undefined when no command has that name. */
export function loadCommand(name: string): Promise<Command> | undefined {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name as keyof typeof LOADERS]() : undefined;
}

/** Every command, in the order --help lists them. */
export const loadCommands = (): Promise<Command[]> => Promise.all(Object.values(LOADERS).map((load) => load()));
