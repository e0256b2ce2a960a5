/**
 * Lines from the host on a runtime's stdin, read synchronously: the job
 * first (before any suite code loads, so the token never sits in argv,
 * where /proc/<pid>/cmdline would show it), then a lockstep job's commands.
 * A blocking read also keeps an idle lockstep process off the CPU while the
 * others sample.
 *
 * Everything it calls later, after case code ran, is taken when the harness
 * loads: a case may replace typed-array methods or TextDecoder's.
 */

const apply = Reflect.apply;
const indexOf = Uint8Array.prototype.indexOf;
const subarray = Uint8Array.prototype.subarray;
const setBytes = Uint8Array.prototype.set;
const decoder = new TextDecoder();
const decode = TextDecoder.prototype.decode.bind(decoder) as (bytes: Uint8Array) => string;
const wait = Atomics.wait;
const NEWLINE = 10;

/** Reads into `buffer`, returns bytes read (0 at the end of input); may throw EAGAIN on a non-blocking pipe. */
export type ReadInto = (buffer: Uint8Array) => number;

export class LineReader {
  private buffer = new Uint8Array(1 << 16);
  private start = 0;
  private end = 0;
  private pause: Int32Array | undefined;

  constructor(private readonly read: ReadInto) {}

  /** The next line without its newline; undefined once the input has ended. */
  next(): string | undefined {
    for (;;) {
      const at = apply(indexOf, apply(subarray, this.buffer, [this.start, this.end]), [NEWLINE]) as number;
      if (at !== -1) {
        const line = decode(apply(subarray, this.buffer, [this.start, this.start + at]) as Uint8Array);
        this.start += at + 1;
        return line;
      }
      if (!this.fill()) {
        if (this.end === this.start) return undefined;
        const rest = decode(apply(subarray, this.buffer, [this.start, this.end]) as Uint8Array);
        this.start = this.end;
        return rest;
      }
    }
  }

  /** Reads more input; false at its end. */
  private fill(): boolean {
    if (this.start > 0) {
      // Move what is left to the front, then grow if the buffer is full of one line.
      apply(setBytes, this.buffer, [apply(subarray, this.buffer, [this.start, this.end]), 0]);
      this.end -= this.start;
      this.start = 0;
    }
    if (this.end === this.buffer.length) {
      const bigger = new Uint8Array(this.buffer.length * 2);
      apply(setBytes, bigger, [this.buffer, 0]);
      this.buffer = bigger;
    }
    for (;;) {
      try {
        const n = this.read(apply(subarray, this.buffer, [this.end]) as Uint8Array);
        if (n <= 0) return false;
        this.end += n;
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EAGAIN') throw error;
        // A non-blocking pipe with nothing in it yet: wait a little without spinning.
        this.pause ??= new Int32Array(new SharedArrayBuffer(4));
        wait(this.pause, 0, 0, 1);
      }
    }
  }
}
