/**
 * The most memory a cgroup v2 cell held, as the kernel counts it
 * (`memory.peak`, Linux 5.19 on, where the cell has the memory controller):
 * every process the cell ever held, ended ones and page cache included. The
 * memory bound reads it beside /proc's high-water marks (process.ts), which
 * miss a process that ended and say nothing once the kernel's `memory.max`
 * has stopped the cell. Where it cannot be read the reading says why in one
 * sentence, never 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type CellMemoryPeak = { bytes: number } | { unavailable: string };

/** `memory.peak` of the cgroup directory `dir`. */
export function readCellMemoryPeak(dir: string): CellMemoryPeak {
  let text: string;
  try {
    text = readFileSync(join(dir, 'memory.peak'), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { unavailable: `${dir} has no memory.peak (a kernel before 5.19, or no memory controller in this cell)` };
    return { unavailable: `memory.peak of ${dir} could not be read (${code ?? (error as Error).message})` };
  }
  const bytes = Number(text.trim());
  return Number.isSafeInteger(bytes) && bytes >= 0 ? { bytes } : { unavailable: `memory.peak of ${dir} reads "${text.trim().slice(0, 40)}", not a byte count` };
}

/** The peak a stopped process is reported with: the highest of the host's readings, undefined when there is none. */
export function stoppedPeak(readings: readonly (number | undefined)[]): number | undefined {
  const read = readings.filter((r): r is number => r !== undefined && r > 0);
  return read.length ? Math.max(...read) : undefined;
}

/** The bytes of a reading, undefined where it could not be read. */
export function peakBytesOf(peak: CellMemoryPeak): number | undefined {
  return 'bytes' in peak ? peak.bytes : undefined;
}
