/**
 * Each command's module, loaded when its command runs: a start loads the
 * command it was given and what that command imports, not every command's
 * (measurers, campaigns, the page renderer…), and `--version` none.
 * command-list.ts lists the commands themselves, in the same order.
 */
import type { Command } from './options/command.ts';

export const COMMAND_MODULES: Readonly<Record<string, () => Promise<Command>>> = {
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
};
