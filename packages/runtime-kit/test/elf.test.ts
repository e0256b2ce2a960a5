/**
 * A binary of another CPU is named by its ELF header: its probe says so in
 * one line instead of the shell's complaint about the bytes it was handed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foreignArchitecture } from '@rtbench/process';
import { probeOutput, RuntimeUnavailableError } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-elf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An executable file of 64 bytes whose ELF header names `machine`, in the byte order given. */
function elfFile(name: string, machine: number, bigEndian = false): string {
  const header = Buffer.alloc(64);
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2;
  header[5] = bigEndian ? 2 : 1;
  if (bigEndian) header.writeUInt16BE(machine, 18);
  else header.writeUInt16LE(machine, 18);
  const file = join(dir, name);
  writeFileSync(file, header, { mode: 0o755 });
  return file;
}

describe('foreign architecture', () => {
  it('names the machine of an ELF file built for another CPU, and passes over its own, scripts and short files', () => {
    const arm64 = elfFile('arm64', 183);
    expect(foreignArchitecture(arm64, 'x64')).toBe('is an ELF binary for aarch64, not x86-64');
    expect(foreignArchitecture(arm64, 'arm64')).toBeUndefined();
    expect(foreignArchitecture(elfFile('s390', 22, true), 'x64')).toBe('is an ELF binary for s390, not x86-64');
    expect(foreignArchitecture(elfFile('odd', 999), 'arm64')).toBe('is an ELF binary for machine 999, not aarch64');
    const script = join(dir, 'script');
    writeFileSync(script, '#!/bin/sh\necho hi\n', { mode: 0o755 });
    expect(foreignArchitecture(script, 'x64')).toBeUndefined();
    expect(foreignArchitecture(join(dir, 'absent'), 'x64')).toBeUndefined();
  });

  it("a probe of another CPU's binary that cannot start names its header and this machine in one line", async () => {
    const other = process.arch === 'arm64' ? 62 : 183;
    const binary = elfFile('runtime', other);
    const error = await probeOutput('node@26', binary, ['--version'], { PATH: process.env.PATH }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeUnavailableError);
    expect((error as Error).message).toBe(`node@26: ${binary} is an ELF binary for ${other === 62 ? 'x86-64' : 'aarch64'}, not ${other === 62 ? 'aarch64' : 'x86-64'}, and this machine (${process.arch}) cannot run it`);
  });
});
