/** A process's tree as Linux's /proc shows it, for the CPU recorder and the tests that watch a CLI's processes. */
import { readdirSync, readFileSync } from 'node:fs';

/** A /proc file's text, or undefined once the process is gone. */
export const readProc = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The live children of a process, over all its threads. */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) => (readProc(`/proc/${pid}/task/${tid}/children`) ?? '').trim().split(/\s+/).filter(Boolean).map(Number));
}
