/**
 * A process's tree as Linux's /proc shows it, read from outside: its
 * children (over all its threads) and every process below it. Its own
 * subpath (@rtbench/process/process-tree), so a reader of the tree loads
 * nothing that starts processes.
 */
import { threadFiles } from './thread-files.ts';

/** The children of every thread of `pid` (a thread other than the main one may have forked). */
export function childrenOf(pid: number): number[] {
  return threadFiles(pid, 'children').flatMap(([, text]) => text.split(' ').filter(Boolean).map(Number));
}

/** `root` and every process below it (just `root` where /proc cannot say). */
export function processTree(root: number): number[] {
  const seen = new Set<number>();
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    pending.push(...childrenOf(pid));
  }
  return [...seen];
}
