/**
 * A size in bytes as a person writes it: "512MiB", "512M" (binary), "64MB"
 * (decimal). Runtime-neutral: a suite's claims (`below('64MB')`) and the
 * command line (`--max-memory`) read sizes the same way.
 */

const BYTE_UNITS: Readonly<Record<string, number>> = { K: 2 ** 10, KiB: 2 ** 10, M: 2 ** 20, MiB: 2 ** 20, G: 2 ** 30, GiB: 2 ** 30, T: 2 ** 40, TiB: 2 ** 40, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 };

/** How to write a size, said where one was refused. */
export const BYTE_SIZE_HINT = 'write a size with its unit: 512MiB, 4GiB (also K, M, G, T: binary; KB, MB, GB, TB: decimal)';

/** The bytes a size names (whole bytes), or undefined when it is not a number with a unit. */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([KMGT](?:iB|B)?)$/.exec(text.trim());
  return m ? Math.floor(Number(m[1]) * BYTE_UNITS[m[2]!]!) : undefined;
}

/** A size in the syntax it is written in ("64MB", "512MiB"), in the largest unit that divides it; else its bytes. */
export function formatByteSize(bytes: number): string {
  for (const unit of ['TiB', 'TB', 'GiB', 'GB', 'MiB', 'MB', 'KiB', 'KB']) {
    const size = BYTE_UNITS[unit]!;
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes} bytes`;
}
