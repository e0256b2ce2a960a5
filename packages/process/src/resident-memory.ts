/**
 * A process's resident memory as the kernel counts it, read from /proc by the
 * host: the resident set now (VmRSS) and its high-water mark (VmHWM), of the
 * process and every process below it, and the mark reset (`5` written to
 * /proc/<pid>/clear_refs) so that a peak is one case's. Read alike for every
 * runtime, whatever it can say about itself (workerd's isolate reads zeros
 * inside). The memory bound (memory-bound.ts) and the memory view read these
 * same figures. Linux only: elsewhere every reading is undefined.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { HostMemory } from '@rtbench/core/schema';
import { processTree } from './process-tree.ts';

export interface ResidentReading {
  /** Resident bytes now, summed over the processes. */
  residentBytes: number;
  /** The high-water mark of each process since its last reset, summed: errs high, never low. */
  peakBytes: number;
  /** Processes read. */
  processes: number;
}

/** How a reading is made, as a saved run says it. */
const RESIDENT_SOURCE = '/proc VmRSS and VmHWM of the process and its children (peak reset per case through clear_refs)';

const onLinux = process.platform === 'linux';

/** A field of /proc/<pid>/status in bytes (the kernel writes kB), or undefined. */
function statusBytes(status: string, field: string): number | undefined {
  const at = status.indexOf(`${field}:`);
  if (at === -1) return undefined;
  const kb = Number.parseInt(status.slice(at + field.length + 1), 10);
  return Number.isFinite(kb) ? kb * 1024 : undefined;
}

/** The resident set and peak of these processes; undefined when none could be read (gone, or not Linux). */
export function readResident(pids: readonly number[]): ResidentReading | undefined {
  if (!onLinux) return undefined;
  let residentBytes = 0;
  let peakBytes = 0;
  let processes = 0;
  for (const pid of pids) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      continue;
    }
    const resident = statusBytes(status, 'VmRSS');
    // A process that has exited (a zombie) has no memory fields.
    if (resident === undefined) continue;
    residentBytes += resident;
    peakBytes += statusBytes(status, 'VmHWM') ?? resident;
    processes++;
  }
  return processes ? { residentBytes, peakBytes, processes } : undefined;
}

/** Resets the high-water mark of these processes to what each holds now; false when the kernel refused for any. */
function resetPeak(pids: readonly number[]): boolean {
  if (!onLinux) return false;
  let all = true;
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      all = false;
    }
  }
  return all;
}

/** What a watch reads of a process whatever it watches: from the open reading to the peak, the processes read. */
type ClosingReading = Omit<HostMemory, 'readyBytes' | 'sampleBytes' | 'callsPerSample' | 'collected'>;

/**
 * What every watch shares: the process tree taken, its peak reset and its
 * resident set read as it opens, and each later reading keeping the highest
 * peak seen (the last one read before a process ends is the one its end leaves).
 */
class ResidentWatch {
  protected readonly pids: number[];
  protected readonly openBytes: number | undefined;
  private peakBytes = 0;

  constructor(private readonly root: number) {
    this.pids = processTree(root);
    resetPeak(this.pids);
    this.openBytes = readResident(this.pids)?.residentBytes;
  }

  /** The resident set now (undefined: it could not be read). */
  protected read(): number | undefined {
    const reading = readResident(this.pids);
    if (reading) this.peakBytes = Math.max(this.peakBytes, reading.peakBytes);
    return reading?.residentBytes;
  }

  /** The closing reading: the resident set now, the peak since open, the processes read; undefined when nothing was read at open. */
  protected close(): ClosingReading | undefined {
    if (this.openBytes === undefined) return undefined;
    const last = readResident(processTree(this.root));
    return {
      source: RESIDENT_SOURCE,
      openBytes: this.openBytes,
      ...(last ? { endBytes: last.residentBytes } : {}),
      peakBytes: Math.max(this.peakBytes, last?.peakBytes ?? 0, this.openBytes),
      processes: last?.processes ?? this.pids.length,
    };
  }
}

/**
 * The host's readings of one case in a live process: the peak reset and the
 * resident set read when the case opens, read again when it is warm and after
 * each sample, and the peak read when it ends. Every reading is a few reads
 * of /proc between samples, outside the process's timed batches.
 */
export class CaseMemoryWatch extends ResidentWatch {
  private readyBytes: number | undefined;
  private callsPerSample = 0;
  private collected = false;
  private readonly sampleBytes: number[] = [];
  private complete = true;

  /** The case is warm: `callsPerSample` calls will make each sample; `collected`: the runtime forced a full collection before this reading and forces one after the last sample. */
  ready(callsPerSample: number, collected = false): void {
    this.callsPerSample = callsPerSample;
    this.collected = collected;
    this.readyBytes = this.read();
  }

  sampled(): void {
    const bytes = this.read();
    if (bytes === undefined) this.complete = false;
    else this.sampleBytes.push(bytes);
  }

  /** What was read, or undefined when the case could not be read from its start (not Linux, the process gone). */
  end(): HostMemory | undefined {
    const closed = this.close();
    if (!closed) return undefined;
    return {
      ...closed,
      ...(this.readyBytes !== undefined ? { readyBytes: this.readyBytes } : {}),
      // A sample whose reading failed leaves the series unaligned with the samples: none is kept then.
      sampleBytes: this.complete ? this.sampleBytes : [],
      callsPerSample: this.callsPerSample,
      ...(this.collected ? { collected: true } : {}),
    };
  }
}

/** A request server's readings (ServerMemoryWatch): as it began to listen, after each wave of requests, and as serving ended. */
export interface ServerMemory extends ClosingReading {
  /** Resident bytes after each wave, by the wave's index (undefined: that one could not be read). */
  waveBytes: (number | undefined)[];
}

/**
 * The host's readings of a request server, from outside as its CPU is: the
 * peak reset and the resident set read once it listens (before its first
 * request), read again after each wave of requests (once its threads are
 * idle, between the CPU reads, so no request's figure holds them), and the
 * peak read when serving ends.
 */
export class ServerMemoryWatch extends ResidentWatch {
  private readonly waveBytes: (number | undefined)[] = [];

  /** Reads the resident set after wave `index`. */
  afterWave(index: number): void {
    this.waveBytes[index] = this.read();
  }

  /** What was read, or undefined when the server could not be read as it began (not Linux, the process gone). */
  end(): ServerMemory | undefined {
    const closed = this.close();
    return closed && { ...closed, waveBytes: this.waveBytes };
  }
}
