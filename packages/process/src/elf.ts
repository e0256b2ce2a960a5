/**
 * Which CPU an ELF binary is built for, read from its header (e_machine), so
 * a binary of another architecture is named as such: run as it is, the
 * kernel refuses it and the C library hands it to /bin/sh, whose complaint
 * (`Syntax error: "(" unexpected`) says nothing about the cause. Files that
 * are not ELF (a script, a Mach-O binary) are not judged here.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** e_machine values of the architectures runtimes are published for, by Node's name for each. */
const MACHINES: Readonly<Record<string, number>> = { x64: 62, arm64: 183, ia32: 3, arm: 40, riscv64: 243, ppc64: 21, s390x: 22 };

/** Names for the e_machine values above, as a reader of `file` output knows them. */
const NAMES: Readonly<Record<number, string>> = { 62: 'x86-64', 183: 'aarch64', 3: 'i386', 40: 'arm', 243: 'riscv', 21: 'ppc64', 22: 's390' };

/** A name for an ELF machine: "aarch64", or "machine 999" for one not listed. */
function machineName(machine: number): string {
  return NAMES[machine] ?? `machine ${machine}`;
}

/** The ELF header's e_machine of `file`; undefined when it is not an ELF file or cannot be read. */
function elfMachine(file: string): number | undefined {
  const header = Buffer.alloc(20);
  let read = 0;
  try {
    const fd = openSync(file, 'r');
    try {
      read = readSync(fd, header, 0, header.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (read < header.length || header.readUInt32BE(0) !== 0x7f454c46) return undefined;
  // EI_DATA (byte 5): 1 little-endian, 2 big-endian.
  return header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
}

/**
 * Why `file` is not a binary for `arch` (Node's name: "x64", "arm64"), in
 * words that follow its path ("is an ELF binary for aarch64, not x86-64"); undefined
 * when it is one, is no ELF file, or `arch` is one this check does not know.
 */
export function foreignArchitecture(file: string, arch: string = process.arch): string | undefined {
  const wanted = MACHINES[arch];
  const machine = elfMachine(file);
  if (wanted === undefined || machine === undefined || machine === wanted) return undefined;
  return `is an ELF binary for ${machineName(machine)}, not ${machineName(wanted)}`;
}
