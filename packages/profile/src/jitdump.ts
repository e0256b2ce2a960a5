/**
 * perf's jitdump format (tools/perf/Documentation/jitdump-specification.txt),
 * as JavaScriptCore writes it with `useJITDump` (bun: BUN_JSC_useJITDump=1):
 * a header, then records; a JIT_CODE_LOAD record gives a code block's
 * address, size and name, JIT_CODE_MOVE a block's new address. rtbench reads
 * the names into perf-map lines (`<start> <size> <name>`, hex), which
 * `perf script` reads from /tmp/perf-<pid>.map like V8's: no `perf inject`
 * (which writes an ELF file per code block) is needed.
 */

const MAGIC = 0x4a695444; // "JiTD" read little-endian
const JIT_CODE_LOAD = 0;
const JIT_CODE_MOVE = 1;

export interface JitCode {
  start: bigint;
  size: bigint;
  name: string;
}

/** The code blocks of a jitdump file, in the order they were loaded (moves applied); throws when it is not one. */
export function parseJitdump(data: Buffer): JitCode[] {
  if (data.length < 40 || data.readUInt32LE(0) !== MAGIC) throw new Error('not a jitdump file (no JiTD header)');
  const headerSize = data.readUInt32LE(8);
  const byIndex = new Map<bigint, JitCode>();
  const codes: JitCode[] = [];
  let at = headerSize;
  while (at + 16 <= data.length) {
    const id = data.readUInt32LE(at);
    const size = data.readUInt32LE(at + 4);
    if (size < 16 || at + size > data.length) break; // the last record may be cut short by the process's end
    if (id === JIT_CODE_LOAD && size >= 56) {
      const start = data.readBigUInt64LE(at + 32);
      const codeSize = data.readBigUInt64LE(at + 40);
      const index = data.readBigUInt64LE(at + 48);
      const end = data.indexOf(0, at + 56);
      const name = data.toString('utf8', at + 56, end < 0 || end > at + size ? at + size : end);
      const code = { start, size: codeSize, name };
      codes.push(code);
      byIndex.set(index, code);
    } else if (id === JIT_CODE_MOVE && size >= 64) {
      const code = byIndex.get(data.readBigUInt64LE(at + 56));
      if (code) code.start = data.readBigUInt64LE(at + 40);
    }
    at += size;
  }
  return codes;
}

/** perf-map text of the code blocks (a name with a newline is cut there). */
export function perfMapLines(codes: readonly JitCode[]): string {
  return codes.map((c) => `${c.start.toString(16)} ${c.size.toString(16)} ${c.name.split('\n')[0]}\n`).join('');
}
