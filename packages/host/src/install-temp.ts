/**
 * What both stores (runtimes, libraries) share while npm installs into
 * them: the folder an install is made in before it is renamed into place,
 * `.installing-<pid>-…` beside the entries, and the lines that say what an
 * install waits for while npm is silent.
 */
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '@rtbench/process';

const TEMP_PREFIX = '.installing-';

/** How often a silent install says it is still waiting. */
const WAITING_EVERY_MS = 15_000;

/** Temporary install folders of runs that died mid-install (".installing-<pid>-…", their pid gone). */
function removeAbandonedTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^\.installing-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !pidAlive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/**
 * A fresh install folder in `dir`, after removing those runs that died
 * left; removed by `release`, or as the process exits first (a stop, a
 * second Ctrl-C while npm waits on a registry).
 */
export function installTemp(dir: string): { path: string; release(): void } {
  removeAbandonedTemps(dir);
  const path = mkdtempSync(join(dir, `${TEMP_PREFIX}${process.pid}-`));
  const remove = (): void => rmSync(path, { recursive: true, force: true });
  process.once('exit', remove);
  return {
    path,
    release: () => {
      process.off('exit', remove);
      remove();
    },
  };
}

/** The registry npm is asked, as a line names it. */
function registryText(env: NodeJS.ProcessEnv): string {
  const given = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  return given ? given : "npm's configured registry";
}

/**
 * `work` (an npm install of `what`), saying first where from and where to,
 * then every WAITING_EVERY_MS while it runs what it still waits for: a
 * registry that does not answer keeps npm silent for minutes.
 */
export async function sayingWhatItWaitsFor<T>(log: ((line: string) => void) | undefined, what: string, where: string, work: () => Promise<T>, env = process.env, everyMs = WAITING_EVERY_MS): Promise<T> {
  const from = registryText(env);
  log?.(`rtbench: installing ${what} into ${where} … (npm, from ${from})`);
  const started = Date.now();
  const timer = log ? setInterval(() => log(`rtbench: still installing ${what}: waiting for npm (${Math.round((Date.now() - started) / 1000)} s; ${from}); Ctrl-C stops it and leaves nothing behind`), everyMs) : undefined;
  timer?.unref();
  try {
    return await work();
  } finally {
    if (timer) clearInterval(timer);
  }
}

/** An install renamed into place; when another run's got there first, that one is used. */
export function renameIntoPlace(temp: string, entry: string): void {
  try {
    renameSync(temp, entry);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
}
