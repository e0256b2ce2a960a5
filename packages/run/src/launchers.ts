/**
 * The programs that launched the CLI (pnpm, npx, tsx, the `sh -c` between
 * them), watched while a run goes on. SIGTERM sent to pnpm alone is not
 * passed on to its children: without this, the CLI and its runtimes would
 * go on measuring in the background for nobody. When one of them ends, the
 * run stops as it does on SIGTERM (saved, exit 143).
 *
 * Linux only (/proc); elsewhere nothing is watched.
 */
import { readFileSync } from 'node:fs';

/** Process names that only pass a command on: the chain is watched up to the first other one (the user's shell, a CI agent, a terminal). */
const LAUNCHER = /^(node|nodejs|npm|npx|pnpm|pnpx|tsx|sh|dash)( |$)/;
const POLL_MS = 1000;

export interface Ancestor {
  pid: number;
  name: string;
}

/** ppid and name of a process from /proc/<pid>/stat; undefined when it is gone. */
function stat(pid: number): { ppid: number; name: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and parentheses, so split at the last ')'.
    const close = text.lastIndexOf(')');
    const name = text.slice(text.indexOf('(') + 1, close);
    const ppid = Number(text.slice(close + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, name } : undefined;
  } catch {
    return undefined;
  }
}

/** The launchers above this process, nearest first. */
function launcherChain(self = process.pid): Ancestor[] {
  const chain: Ancestor[] = [];
  let pid = stat(self)?.ppid;
  while (pid !== undefined && pid > 1 && chain.length < 16) {
    const s = stat(pid);
    if (!s || !LAUNCHER.test(s.name)) break;
    chain.push({ pid, name: s.name });
    pid = s.ppid;
  }
  return chain;
}

/**
 * Calls `onGone` (once) when a launcher in the chain has ended: the chain read
 * again no longer holds it. Returns a function that stops watching.
 */
export function watchLaunchers(onGone: (ended: Ancestor) => void): () => void {
  const chain = launcherChain();
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    const now = launcherChain();
    const ended = chain.find((a, i) => now[i]?.pid !== a.pid);
    if (!ended) return;
    clearInterval(timer);
    onGone(ended);
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
