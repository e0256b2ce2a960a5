/**
 * Set-up of `pnpm test:fast`: the fast tests start no process (no runtime,
 * no git, no browser). A test that tries fails at once with a line saying
 * where it belongs, so the fast list cannot drift into the slow suite.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of STARTERS) {
  (childProcess as unknown as Record<string, unknown>)[name] = (command: unknown) => {
    throw new Error(`a test:fast test started a process (child_process.${name} ${String(command)}): take its file out of vitest.fast.config.ts`);
  };
}
syncBuiltinESMExports();
