/**
 * Every thread's file of one kind under /proc/<pid>/task/<tid>/ (schedstat,
 * children, syscall, …), read from outside the process. A thread that ends
 * between the listing and the read is left out; a process that is gone gives
 * none. Linux only: elsewhere there is no /proc, and the answer is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function threadFiles(pid: number, file: string): [tid: number, text: string][] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const found: [number, string][] = [];
  for (const tid of tids) {
    try {
      found.push([Number(tid), readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'latin1')]);
    } catch {
      // Ended since the listing.
    }
  }
  return found;
}
