// What rtbench keeps of a tool's output that could be endless (a build step
// printing in a loop until its time bound): its first `headBytes` as they
// come, its last `tailBytes` held until it ends, and a count of the bytes
// between, which are dropped. Memory and disk stay within the two bounds
// (and one chunk) however much the tool prints. Plain JavaScript: the output
// keeper (output-keeper.mjs) runs it on the host's own node with no loader.

/** The line put where the middle of an output was dropped. */
export const droppedLine = (dropped, headBytes, tailBytes) =>
  `\n[rtbench: ${dropped} bytes of this output left out here; the first ${headBytes} and the last ${tailBytes} bytes are kept]\n`;

export class BoundedOutput {
  /** @param {number} headBytes @param {number} tailBytes */
  constructor(headBytes, tailBytes) {
    this.headBytes = headBytes;
    this.tailBytes = tailBytes;
    /** Bytes passed on as the head so far. */
    this.headed = 0;
    /** The last chunks, at most tailBytes of them once trimmed. */
    this.tail = [];
    this.tailHeld = 0;
    this.dropped = 0;
  }

  /** Takes a chunk; returns the part of it that belongs to the head, to be written now. */
  add(chunk) {
    const room = this.headBytes - this.headed;
    const head = chunk.subarray(0, Math.max(0, room));
    this.headed += head.length;
    const rest = chunk.subarray(head.length);
    if (rest.length) {
      this.tail.push(rest);
      this.tailHeld += rest.length;
      while (this.tailHeld > this.tailBytes) {
        const first = this.tail[0];
        const over = this.tailHeld - this.tailBytes;
        if (first.length <= over) {
          this.tail.shift();
          this.tailHeld -= first.length;
          this.dropped += first.length;
        } else {
          this.tail[0] = first.subarray(over);
          this.tailHeld -= over;
          this.dropped += over;
        }
      }
    }
    return head;
  }

  /** What follows the head once the output has ended: the line saying what was dropped (when anything was), then the tail. */
  end() {
    const tail = Buffer.concat(this.tail);
    return this.dropped ? Buffer.concat([Buffer.from(droppedLine(this.dropped, this.headBytes, this.tailBytes)), tail]) : tail;
  }
}
