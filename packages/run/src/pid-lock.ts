/**
 * A lock held by one rtbench process: a file created only if absent, holding
 * its pid, the machine it runs on and when that process started (where the
 * system says: Linux's /proc). Taken while two processes would otherwise
 * write the same files (a bisect's folder, a release matrix's, a --save run
 * and its profiles); a lock whose process has ended, or whose pid now names
 * a process started later, is taken over. A lock this machine cannot check
 * (taken on another machine and restored from a cache, or by an older
 * rtbench) is refused with the way to clear it. Released by the returned
 * function, and at exit.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { pidAlive } from '@rtbench/process';
import { UsageError } from '@rtbench/core/usage-error';

/** When `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined where there is no /proc. */
function startedAt(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses, which may hold spaces) begin with field 3.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
  } catch {
    return undefined;
  }
}

/** The lock's text: who holds it. */
function holderText(): string {
  return `${process.pid}\n${hostname()}\n${startedAt(process.pid) ?? ''}\n`;
}

type Holder = 'gone' | 'live' | 'unknown';

/** Whether the lock's holder is a live process of this machine, gone, or one this machine cannot check. */
function holderOf(text: string): { pid: number; host: string | undefined; state: Holder } {
  const [pidLine, host, started] = text.split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  if (!(Number.isInteger(pid) && pid > 0)) return { pid, host, state: 'gone' };
  if (host === undefined || host === '') return { pid, host, state: pidAlive(pid) ? 'unknown' : 'gone' };
  if (host !== hostname()) return { pid, host, state: 'unknown' };
  if (!pidAlive(pid)) return { pid, host, state: 'gone' };
  // The pid was given again to a process started since: the lock's owner is gone.
  const now = startedAt(pid);
  if (started && now !== undefined && started !== now) return { pid, host, state: 'gone' };
  return { pid, host, state: 'live' };
}

/** Takes the lock at `file`, or refuses in one line: `busy(pid)` says who holds it and what to do. */
export function takeLock(file: string, busy: (pid: number) => string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, holderText(), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw new UsageError(`cannot take the lock ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      const holder = holderOf(readFileSync(file, 'utf8'));
      if (holder.state === 'live') throw new UsageError(busy(holder.pid));
      if (holder.state === 'unknown') {
        throw new UsageError(`${file} is held by pid ${holder.pid}${holder.host ? ` of ${holder.host}` : ''}, which this machine cannot check; if no rtbench is working there (a lock restored from a cache or copied with its folder), remove ${file}`);
      }
      rmSync(file, { force: true });
    }
  }
  const release = (): void => {
    process.off('exit', release);
    rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
