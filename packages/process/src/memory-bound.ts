/**
 * The memory bound: every runtime process rtbench starts (a case's process, a
 * host-timed program, a count under valgrind, a profile) may hold at most this
 * much resident memory, it and the processes it started together. An engine's
 * heap limit does not do it: JavaScriptCore has none, and V8's leaves out
 * ArrayBuffers, Buffers and native allocations. The host enforces it
 * (process.ts watches each process; a cgroup with the memory controller also
 * holds memory.max), so one case cannot take a shared machine to the kernel's
 * OOM killer. docs/containment.md says how, and what it costs.
 */
import { totalmem } from 'node:os';
import { processTree } from './process-tree.ts';
import { readResident } from './resident-memory.ts';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** A quarter of the machine's memory, at most 4 GiB: four runtimes in flight at once leave the machine its memory. */
export function defaultMemoryBound(): number {
  return Math.min(4 * GiB, Math.floor(totalmem() / 4 / MiB) * MiB);
}

let bound = defaultMemoryBound();

/** The bound in bytes that every process started from now on is held to (`--max-memory`). */
export function setMemoryBound(bytes: number): void {
  if (!Number.isFinite(bytes) || bytes <= 0) throw new RangeError(`a memory bound must be a positive number of bytes, not ${bytes}`);
  bound = bytes;
}

export function memoryBound(): number {
  return bound;
}

/** "4 GiB", "512 MiB", "1.5 GiB": the bound as a user writes it. */
export function byteSizeText(bytes: number): string {
  if (bytes >= GiB) return `${+(bytes / GiB).toFixed(2)} GiB`;
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}

/** The one line a process stopped at the bound is reported with, with its peak where the host read one. */
export function memoryBoundText(bytes: number, peakBytes?: number): string {
  const peak = peakBytes !== undefined && peakBytes > bytes ? ` (peak ${byteSizeText(peakBytes)})` : '';
  return `used more than ${byteSizeText(bytes)}${peak}; the process was stopped (--max-memory)`;
}

/**
 * Resident memory of `root` and every process below it (Linux; undefined
 * where /proc cannot say): the same reading as the memory view's
 * (resident-memory.ts). Memory shared between them counts once per process:
 * the sum errs high, never low.
 */
export function treeResidentBytes(root: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  return readResident(processTree(root))?.residentBytes ?? 0;
}
