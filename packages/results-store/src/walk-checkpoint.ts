/**
 * A history's first walk kept where it stopped, so that the next history
 * whose runs, in its order, begin with the same runs walks only the runs
 * after them. A CI gate's history is the last one with one run more: its
 * walk then reads one walk row, not ten thousand.
 *
 * A checkpoint is kept by what decides a walk besides its runs (the
 * checkpoint's key: which cases and variants it reads, the confidence its
 * candidates are taken at, whether it has a window) and names the runs it
 * walked by the digest of their ordered record digests. A walk resumes from
 * it only when its own first runs have that digest; any other walk (a run
 * landed between two others, another order, fewer runs) walks from the
 * first run and keeps its own. What it holds is made from the runs' records
 * alone (their arms and the p-values of their neighbours), so a checkpoint
 * is never stale, only unused.
 *
 * Bytes: a little-endian u32 header length and the header as JSON (the
 * series and the distinct works of the arms), then the walk's numbers
 * (WalkSnapshot): the p-values, each series' last point's run, the arms
 * (each series' last, then each candidate's pair), the candidates' runs and
 * p-values, and each series' previous runs.
 */
import { createHash } from 'node:crypto';
import type { ArmReading, ArmSummary, ArmWork, WalkedSeries, WalkSnapshot } from '@rtbench/verdicts';

/** Bumped when the bytes or what a walk keeps change: a checkpoint of another version is never read (its key differs). */
const VERSION = 1;

/** An arm's numbers: median, rounds, then its moments (NaN without), then its work's place in the header. */
const ARM_BYTES = 6 * 8 + 4;

/** What a store keeps of a walk (RunStore.checkpoint). */
export interface StoredCheckpoint {
  /** How many runs it walked. */
  runs: number;
  /** The digest of their record digests, in order (prefixDigest). */
  prefix: string;
  state: Uint8Array;
}

/** A walk as kept: its state and the series it met, in the order each first appeared. */
export interface WalkCheckpoint {
  snapshot: WalkSnapshot;
  series: WalkedSeries[];
}

/** What decides a walk besides its runs: the cases and variants it reads, its candidates' confidence, whether it has a window. */
export interface WalkDecider {
  /** Whether a case filter picks its cases; `pickedCases` the ids it picks, where they are known. */
  caseFiltered: boolean;
  pickedCases?: ReadonlySet<string>;
  variants?: readonly string[];
  confidence: number;
  windowed: boolean;
}

/**
 * The key a walk is kept under: what decides it besides its runs. Undefined
 * when a filter picks cases by a test it does not name (no `pickedCases`):
 * such a walk is not kept.
 */
export function checkpointKey({ caseFiltered, pickedCases, variants, confidence, windowed }: WalkDecider): string | undefined {
  if (caseFiltered && !pickedCases) return undefined;
  const decides = { version: VERSION, confidence, windowed, cases: pickedCases ? [...pickedCases].sort() : null, variants: variants ? [...variants] : null };
  return createHash('sha256').update(JSON.stringify(decides)).digest('hex').slice(0, 32);
}

/** The digest of the first `runs` of these record digests, in order. */
export function prefixDigest(digests: readonly string[], runs: number): string {
  const hash = createHash('sha256');
  for (let i = 0; i < runs; i++) hash.update(digests[i]!).update('\n');
  return hash.digest('hex');
}

interface Header {
  series: WalkedSeries[];
  works: ArmWork[];
  runs: number;
  m: number;
  candidates: number;
}

export function packCheckpoint({ snapshot, series }: WalkCheckpoint): Uint8Array {
  const { runs, pValues, candidates, lastPointRun, lastArm, previous } = snapshot;
  if (lastPointRun.length !== series.length) throw new Error(`a walk of ${lastPointRun.length} series kept with ${series.length} named`);
  const works: ArmWork[] = [];
  const workAt = new Map<ArmWork, number>();
  const workOf = (work: ArmWork): number => {
    let at = workAt.get(work);
    if (at === undefined) workAt.set(work, (at = works.push(work) - 1));
    return at;
  };
  const arms: (ArmSummary | undefined)[] = [...lastArm, ...candidates.flatMap((c) => [c.pair[0].summary(), c.pair[1].summary()])];
  arms.forEach((arm) => arm && workOf(arm.work));
  const header: Header = { series, works, runs, m: pValues.length, candidates: candidates.length };
  const head = Buffer.from(JSON.stringify(header));
  const S = lastPointRun.length;
  const size = 4 + head.byteLength + 8 * pValues.length + 4 * S + ARM_BYTES * arms.length + 16 * candidates.length + 4 * S * runs;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, head.byteLength, true);
  out.set(head, 4);
  let o = 4 + head.byteLength;
  for (const p of pValues) (view.setFloat64(o, p, true), (o += 8));
  for (const run of lastPointRun) (view.setInt32(o, run, true), (o += 4));
  for (const arm of arms) {
    const numbers = arm ? [arm.median, arm.rounds, arm.moments?.values ?? NaN, arm.moments?.units ?? NaN, arm.moments?.mean ?? NaN, arm.moments?.variance ?? NaN] : [NaN, NaN, NaN, NaN, NaN, NaN];
    for (const n of numbers) (view.setFloat64(o, n, true), (o += 8));
    view.setInt32(o, arm ? workOf(arm.work) : -1, true);
    o += 4;
  }
  for (const c of candidates) {
    view.setInt32(o, c.run, true);
    view.setInt32(o + 4, c.from, true);
    view.setFloat64(o + 8, c.p, true);
    o += 16;
  }
  for (let s = 0; s < S; s++) {
    out.set(new Uint8Array(previous[s]!.buffer, previous[s]!.byteOffset, 4 * runs), o);
    o += 4 * runs;
  }
  return out;
}

/** The arm packed at `at` (packCheckpoint's layout). */
function packedArm(view: DataView, at: number, works: readonly ArmWork[]): ArmSummary {
  const values = view.getFloat64(at + 16, true);
  const moments = Number.isNaN(values) ? {} : { moments: { values, units: view.getFloat64(at + 24, true), mean: view.getFloat64(at + 32, true), variance: view.getFloat64(at + 40, true) } };
  return { median: view.getFloat64(at, true), rounds: view.getFloat64(at + 8, true), ...moments, work: works[view.getInt32(at + 48, true)]! };
}

/** A candidate's arm in a checkpoint's bytes, read when asked. */
class PackedArm implements ArmReading {
  constructor(private readonly view: DataView, private readonly at: number, private readonly works: readonly ArmWork[]) {}
  summary(): ArmSummary {
    return packedArm(this.view, this.at, this.works);
  }
}

/** A checkpoint's bytes read back; throws when they are not what packCheckpoint makes. */
export function unpackCheckpoint(bytes: Uint8Array): WalkCheckpoint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headBytes = view.getUint32(0, true);
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headBytes).toString()) as Header;
  const { series, works, runs, m } = header;
  const S = series.length;
  const expected = 4 + headBytes + 8 * m + 4 * S + ARM_BYTES * (S + 2 * header.candidates) + 16 * header.candidates + 4 * S * runs;
  if (expected !== bytes.byteLength) throw new Error(`a walk checkpoint of ${bytes.byteLength} bytes where its header says ${expected}`);
  let o = 4 + headBytes;
  const pValues = new Float64Array(m);
  for (let i = 0; i < m; i++, o += 8) pValues[i] = view.getFloat64(o, true);
  const lastPointRun = new Int32Array(S);
  for (let s = 0; s < S; s++, o += 4) lastPointRun[s] = view.getInt32(o, true);
  const lastArm = series.map(() => {
    const at = o;
    o += ARM_BYTES;
    return view.getInt32(at + 48, true) < 0 ? undefined : packedArm(view, at, works);
  });
  // A candidate's arms are read when the step decides it: few of them.
  const pairs = Array.from({ length: header.candidates }, () => {
    const at = o;
    o += 2 * ARM_BYTES;
    return [new PackedArm(view, at, works), new PackedArm(view, at + ARM_BYTES, works)] as [ArmReading, ArmReading];
  });
  const candidates = pairs.map((pair) => {
    const c = { run: view.getInt32(o, true), from: view.getInt32(o + 4, true), p: view.getFloat64(o + 8, true), pair };
    o += 16;
    return c;
  });
  const previous = series.map(() => {
    const kept = new Int32Array(runs);
    for (let r = 0; r < runs; r++, o += 4) kept[r] = view.getInt32(o, true);
    return kept;
  });
  return { snapshot: { runs, pValues, candidates, lastPointRun, lastArm, previous }, series };
}
