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
 * series, the distinct works of the arms, the byte order), padded to 8
 * bytes, then the walk's numbers (WalkSnapshot) in the host's byte order:
 * the p-values (ascending), each series' previous runs, each series' last
 * point's run, the arms (each series' last, then each candidate's pair),
 * and the candidates' runs and p-values. The p-values and previous runs, a
 * checkpoint's bulk, are written as whole arrays and read as views of the
 * bytes (the walk resumed from them takes them as its own).
 */
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import type { ArmReading, ArmSummary, ArmWork, WalkedSeries, WalkSnapshot } from '@rtbench/verdicts';

/** Bumped when the bytes or what a walk keeps change: a checkpoint of another version is never read (its key differs). */
const VERSION = 2;

/** The numbers are kept in the host's byte order, written whole; a store moved to a host of the other order walks from the first run. */
const LITTLE_ENDIAN = endianness() === 'LE';

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
  littleEndian: boolean;
}

/** Where the numbers start: after the length and the header, at a multiple of 8. */
const numbersAt = (headBytes: number): number => Math.ceil((4 + headBytes) / 8) * 8;

/**
 * `length` numbers of `type` at `at` in `bytes`: a view of them where they
 * are aligned (a large blob is a buffer of its own), else a copy (a Buffer
 * of a driver's pool need not be).
 */
function numbersIn<T extends Float64Array | Int32Array>(type: { new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): T; BYTES_PER_ELEMENT: number }, bytes: Uint8Array, at: number, length: number): T {
  const offset = bytes.byteOffset + at;
  if (offset % type.BYTES_PER_ELEMENT === 0) return new type(bytes.buffer, offset, length);
  return new type(new Uint8Array(bytes.buffer, offset, length * type.BYTES_PER_ELEMENT).slice().buffer);
}

const asBytes = (numbers: Float64Array | Int32Array): Uint8Array => new Uint8Array(numbers.buffer, numbers.byteOffset, numbers.byteLength);

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
  const header: Header = { series, works, runs, m: pValues.length, candidates: candidates.length, littleEndian: LITTLE_ENDIAN };
  const head = Buffer.from(JSON.stringify(header));
  const S = lastPointRun.length;
  let o = numbersAt(head.byteLength);
  const out = new Uint8Array(o + 8 * pValues.length + 4 * S * runs + 4 * S + ARM_BYTES * arms.length + 16 * candidates.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, head.byteLength, true);
  out.set(head, 4);
  out.set(asBytes(pValues), o);
  o += 8 * pValues.length;
  for (let s = 0; s < S; s++, o += 4 * runs) out.set(asBytes(previous[s]!.subarray(0, runs)), o);
  out.set(asBytes(lastPointRun), o);
  o += 4 * S;
  for (const arm of arms) {
    const numbers = arm ? [arm.median, arm.rounds, arm.moments?.values ?? NaN, arm.moments?.units ?? NaN, arm.moments?.mean ?? NaN, arm.moments?.variance ?? NaN] : [NaN, NaN, NaN, NaN, NaN, NaN];
    for (const n of numbers) (view.setFloat64(o, n, LITTLE_ENDIAN), (o += 8));
    view.setInt32(o, arm ? workOf(arm.work) : -1, LITTLE_ENDIAN);
    o += 4;
  }
  for (const c of candidates) {
    view.setInt32(o, c.run, LITTLE_ENDIAN);
    view.setInt32(o + 4, c.from, LITTLE_ENDIAN);
    view.setFloat64(o + 8, c.p, LITTLE_ENDIAN);
    o += 16;
  }
  return out;
}

/** The arm packed at `at` (packCheckpoint's layout). */
function packedArm(view: DataView, at: number, works: readonly ArmWork[]): ArmSummary {
  const le = LITTLE_ENDIAN;
  const values = view.getFloat64(at + 16, le);
  const moments = Number.isNaN(values) ? {} : { moments: { values, units: view.getFloat64(at + 24, le), mean: view.getFloat64(at + 32, le), variance: view.getFloat64(at + 40, le) } };
  return { median: view.getFloat64(at, le), rounds: view.getFloat64(at + 8, le), ...moments, work: works[view.getInt32(at + 48, le)]! };
}

/** A candidate's arm in a checkpoint's bytes, read when asked. */
class PackedArm implements ArmReading {
  constructor(private readonly view: DataView, private readonly at: number, private readonly works: readonly ArmWork[]) {}
  summary(): ArmSummary {
    return packedArm(this.view, this.at, this.works);
  }
}

/** A checkpoint's bytes read back; throws when they are not what packCheckpoint makes on a host of this byte order. */
export function unpackCheckpoint(bytes: Uint8Array): WalkCheckpoint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headBytes = view.getUint32(0, true);
  const header = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + 4, headBytes).toString()) as Header;
  const { series, works, runs, m } = header;
  if (header.littleEndian !== LITTLE_ENDIAN) throw new Error('a walk checkpoint kept on a host of the other byte order');
  const S = series.length;
  let o = numbersAt(headBytes);
  const expected = o + 8 * m + 4 * S * runs + 4 * S + ARM_BYTES * (S + 2 * header.candidates) + 16 * header.candidates;
  if (expected !== bytes.byteLength) throw new Error(`a walk checkpoint of ${bytes.byteLength} bytes where its header says ${expected}`);
  const pValues = numbersIn(Float64Array, bytes, o, m);
  o += 8 * m;
  const previous = series.map(() => {
    const kept = numbersIn(Int32Array, bytes, o, runs);
    o += 4 * runs;
    return kept;
  });
  const lastPointRun = numbersIn(Int32Array, bytes, o, S);
  o += 4 * S;
  const lastArm = series.map(() => {
    const at = o;
    o += ARM_BYTES;
    return view.getInt32(at + 48, LITTLE_ENDIAN) < 0 ? undefined : packedArm(view, at, works);
  });
  // A candidate's arms are read when the step decides it: few of them.
  const pairs = Array.from({ length: header.candidates }, () => {
    const at = o;
    o += 2 * ARM_BYTES;
    return [new PackedArm(view, at, works), new PackedArm(view, at + ARM_BYTES, works)] as [ArmReading, ArmReading];
  });
  const candidates = pairs.map((pair) => {
    const c = { run: view.getInt32(o, LITTLE_ENDIAN), from: view.getInt32(o + 4, LITTLE_ENDIAN), p: view.getFloat64(o + 8, LITTLE_ENDIAN), pair };
    o += 16;
    return c;
  });
  return { snapshot: { runs, pValues, candidates, lastPointRun, lastArm, previous }, series };
}
