/**
 * Whether a process runs under a user-mode emulator (qemu-user: a foreign
 * architecture's runtime run on this machine), read from outside: the
 * program the kernel runs for it (/proc/<pid>/exe), which is the emulator
 * whether it was started by name or through binfmt_misc. An emulator
 * translates and runs the guest's code on the same threads, so the shares
 * of CPU an honest native process accounts for do not hold, and no time
 * from it is the machine's. Linux only: elsewhere undefined.
 */
import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';

const EMULATOR = /^qemu-[\w-]+$/;

/** The emulator's program name (e.g. `qemu-aarch64-static`), or undefined for a native process or one that is gone. */
export function emulatorOf(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const program = basename(readlinkSync(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
    return EMULATOR.test(program) ? program : undefined;
  } catch {
    return undefined;
  }
}
