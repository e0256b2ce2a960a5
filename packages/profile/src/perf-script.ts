/**
 * The text `perf script -F pid,tid,time,period,ip,sym,dso` prints: one sample
 * per block, a header line (`<pid>/<tid> <seconds>: <period>`) and its call stack, one
 * frame per line (`<address> <symbol> (<library>)`), innermost first.
 * Symbols perf could not resolve read `[unknown]`.
 */

export interface PerfFrame {
  /** Hex address as perf printed it. */
  ip: string;
  /** perf's symbol (demangled), or undefined where it printed `[unknown]`. */
  symbol?: string;
  /** The library or binary the address is in (`/tmp/perf-<pid>.map` for JIT code, `[kernel.kallsyms]`, `[unknown]`). */
  dso: string;
}

export interface PerfSample {
  /** The process (the thread's own id where perf printed no pid). */
  pid: number;
  tid: number;
  /** perf's timestamp, seconds. */
  time: number;
  /** The sampling period: ns of the software clock this sample stands for. */
  periodNs: number;
  /** Innermost first. */
  frames: PerfFrame[];
}

/** `perf script` arguments for the text parsePerfScript reads (no inline expansion: the binaries have no DWARF, and addr2line is slow). */
export const PERF_SCRIPT_FIELDS = ['-F', 'pid,tid,time,period,ip,sym,dso', '--no-inline'];

const HEADER = /^\s*(?:(\d+)\/)?(\d+)\s+(\d+\.\d+):\s+(\d+)\s*$/;
const FRAME = /^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$/;

/** Every sample of the text; a block it cannot read is skipped and counted. */
export function parsePerfScript(text: string): { samples: PerfSample[]; unreadable: number } {
  const samples: PerfSample[] = [];
  let unreadable = 0;
  let current: PerfSample | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      current = undefined;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      current = { pid: Number(header[1] ?? header[2]), tid: Number(header[2]), time: Number(header[3]), periodNs: Number(header[4]), frames: [] };
      samples.push(current);
      continue;
    }
    const frame = FRAME.exec(line);
    if (frame && current) {
      const symbol = frame[2]!;
      current.frames.push({ ip: frame[1]!, ...(symbol && symbol !== '[unknown]' ? { symbol } : {}), dso: frame[3]! });
    } else if (!current) unreadable++;
  }
  return { samples, unreadable };
}
