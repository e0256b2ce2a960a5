/**
 * Reads a V8 `--trace-gc` log that scripts/measure/requests/request-loop/gc-driver.js marked
 * with each request's end (`--- request <i> <ms> ms`): per request, its
 * young collections (Scavenge, Minor Mark-Sweep) and full ones (Mark-Compact),
 * the main thread's pause of each (a full one's incremental steps included),
 * and the heap in use before it.
 */

/** One collection as the trace prints it. */
export interface Collection {
  kind: 'young' | 'full';
  /** The main thread's pause, ms: the figure before ` / `, plus a full collection's `+ x ms in n steps`. */
  pauseMs: number;
  /** The heap in use before it, MB. */
  beforeMb: number;
}

/** One request of the driver: its wall time and the collections that ran before its end mark. */
export interface TracedRequest {
  ms: number;
  collections: Collection[];
}

const COLLECTION = /: (.*?)\s+(\d+(?:\.\d+)?) \(\d+(?:\.\d+)?\) -> \d+(?:\.\d+)? \(\d+(?:\.\d+)?\) MB, .*?(\d+(?:\.\d+)?) \/ \d+(?:\.\d+)? ms(?: \(\+ (\d+(?:\.\d+)?) ms in)?/;
const MARK = /^--- request \d+ (\d+(?:\.\d+)?) ms$/;

/** The requests of a marked trace, in order; collections after the last mark belong to none. */
export function tracedRequests(log: string): TracedRequest[] {
  const out: TracedRequest[] = [];
  let pending: Collection[] = [];
  for (const line of log.split('\n')) {
    const mark = MARK.exec(line.trim());
    if (mark) {
      out.push({ ms: Number(mark[1]), collections: pending });
      pending = [];
      continue;
    }
    const c = COLLECTION.exec(line);
    if (!c) continue;
    const full = c[1]!.includes('Mark-Compact');
    if (!full && !/Scavenge|Minor/.test(c[1]!)) continue;
    pending.push({ kind: full ? 'full' : 'young', pauseMs: Number(c[3]) + (full ? Number(c[4] ?? 0) : 0), beforeMb: Number(c[2]) });
  }
  return out;
}

/** What the requests' collections came to: how many of each kind, their pauses together, the largest heap in use before one. */
export function collectionsOf(requests: readonly TracedRequest[]): { young: number; youngMs: number; full: number; fullMs: number; maxHeapMb: number } {
  const all = requests.flatMap((r) => r.collections);
  const of = (kind: Collection['kind']) => all.filter((c) => c.kind === kind);
  const sum = (cs: readonly Collection[]) => cs.reduce((s, c) => s + c.pauseMs, 0);
  return { young: of('young').length, youngMs: sum(of('young')), full: of('full').length, fullMs: sum(of('full')), maxHeapMb: Math.max(0, ...all.map((c) => c.beforeMb)) };
}
