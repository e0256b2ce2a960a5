/**
 * What a run's walk row keeps of its comparisons with the runs before it
 * (schema.ts walks.neighbours), so that a history's first walk reads each
 * neighbour comparison's p-value instead of computing it again. A p-value
 * is a function of the two runs' arms alone (verdicts' summariesPValue), so
 * it is kept by the pair of runs — the earlier run's digest — and by the
 * position of the figure in this run's walk row, whatever history compared
 * them: a history in another order, of fewer runs, or with a run that landed
 * between two others compares other pairs, finds them unknown, computes
 * them and adds them (series.ts); a pair kept is never wrong, only unused.
 *
 * Bytes: one entry per earlier run, each its digest's 32 bytes then a
 * little-endian double per position of this run's walk row: the p-value,
 * NONE for a pair without one, UNKNOWN for a position not compared yet.
 */
import type { NeighbourPValue } from '@rtbench/verdicts';

const UNKNOWN = -1;
const NONE = -2;
const DIGEST_BYTES = 32;

/** A run's neighbour p-values as read from its walk row, and those a walk computed since. */
export class RunNeighbours {
  private readonly froms: string[] = [];
  private readonly values: Float64Array[] = [];
  private changed = false;

  /** `bytes`: the walk row's neighbours cell (null: none kept); `length`: how many figures the row holds. */
  constructor(bytes: Uint8Array | null, private readonly length: number) {
    if (!bytes) return;
    const stride = DIGEST_BYTES + 8 * length;
    if (bytes.byteLength % stride !== 0) throw new Error(`a walk row's neighbours (${bytes.byteLength} bytes) do not fit its ${length} figures`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let o = 0; o < bytes.byteLength; o += stride) {
      this.froms.push(Buffer.from(bytes.buffer, bytes.byteOffset + o, DIGEST_BYTES).toString('hex'));
      const values = new Float64Array(length);
      for (let at = 0; at < length; at++) values[at] = view.getFloat64(o + DIGEST_BYTES + 8 * at, true);
      this.values.push(values);
    }
  }

  /** The p-value of the figure at `at` against the run `from` (its digest): undefined when not kept. */
  known(from: string, at: number): NeighbourPValue | undefined {
    const i = this.froms.indexOf(from);
    if (i < 0) return undefined;
    const p = this.values[i]![at]!;
    return p === UNKNOWN ? undefined : p === NONE ? null : p;
  }

  /** Keeps the p-value a walk computed for the figure at `at` against the run `from`. */
  keep(from: string, at: number, p: NeighbourPValue): void {
    // A p-value is in [0, 1] (or NaN): one below would read as a sentinel, so it is not kept (computed again).
    if (p !== null && p < 0) return;
    let i = this.froms.indexOf(from);
    if (i < 0) {
      i = this.froms.push(from) - 1;
      this.values.push(new Float64Array(this.length).fill(UNKNOWN));
    }
    this.values[i]![at] = p === null ? NONE : p;
    this.changed = true;
  }

  /** Whether a walk kept a p-value here since the row was read. */
  get dirty(): boolean {
    return this.changed;
  }

  /** The cell to write back. */
  bytes(): Uint8Array {
    const stride = DIGEST_BYTES + 8 * this.length;
    const out = new Uint8Array(stride * this.froms.length);
    const view = new DataView(out.buffer);
    this.froms.forEach((from, i) => {
      out.set(Buffer.from(from, 'hex'), i * stride);
      this.values[i]!.forEach((p, at) => view.setFloat64(i * stride + DIGEST_BYTES + 8 * at, p, true));
    });
    return out;
  }
}
