/**
 * Reading protocol lines from any text stream: a child's stdout (node, deno,
 * bun) or an HTTP response body (workerd). Lines behind the marker are
 * validated messages; anything else goes to a side channel for error reports.
 */
import { LINE_MARKER, type RuntimeMessage } from '@rtbench/core/protocol';
import { parseRuntimeMessage } from '@rtbench/core/schema';

/** Keeps the last `limit` characters of a stream. */
export class Tail {
  private text = '';
  constructor(private readonly limit = 8_000) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }
  toString(): string {
    return this.text.length > this.limit ? `…${this.text.slice(-this.limit)}` : this.text;
  }
}

export class ProtocolReader {
  readonly messages: RuntimeMessage[] = [];
  /** Lines that carried the marker but did not validate. */
  readonly protocolErrors: string[] = [];
  private buffered = '';

  /**
   * @param other receives every line without the marker (a case's own output).
   * @param onMessage called for each validated message as it arrives.
   */
  constructor(
    private readonly other: Tail,
    private readonly onMessage?: (message: RuntimeMessage) => void,
  ) {}

  push(chunk: string): void {
    this.buffered += chunk;
    let newline = this.buffered.indexOf('\n');
    while (newline !== -1) {
      this.line(this.buffered.slice(0, newline));
      this.buffered = this.buffered.slice(newline + 1);
      newline = this.buffered.indexOf('\n');
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (this.buffered.length) this.line(this.buffered);
    this.buffered = '';
  }

  private line(line: string): void {
    // The marker may follow text on the same line: a runtime that writes
    // through buffered stdio (V8's --trace-gc) can flush a partial line of
    // its own just before the entry's unbuffered write.
    const at = line.indexOf(LINE_MARKER);
    if (at === -1) {
      if (line.length) this.other.push(`${line}\n`);
      return;
    }
    if (at > 0) this.other.push(`${line.slice(0, at)}\n`);
    try {
      const message = parseRuntimeMessage(JSON.parse(line.slice(at + LINE_MARKER.length)));
      this.messages.push(message);
      this.onMessage?.(message);
    } catch (error) {
      this.protocolErrors.push(error instanceof Error ? error.message : String(error));
    }
  }
}
