/**
 * A lock held by one rtbench process: a file created only if absent, holding
 * its pid. Taken while two processes would otherwise write the same files
 * (a bisect's folder, a --save run and its profiles); a lock whose process has
 * ended is taken over. Released by the returned function, and at exit.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pidAlive } from '@rtbench/process';
import { UsageError } from '@rtbench/suite-loader';

/** Takes the lock at `file`, or refuses in one line: `busy(pid)` says who holds it and what to do. */
export function takeLock(file: string, busy: (pid: number) => string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw new UsageError(`cannot take the lock ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && pidAlive(holder)) throw new UsageError(busy(holder));
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
