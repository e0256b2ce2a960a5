/**
 * The V8 version a workerd binary carries, read from its bytes: the one
 * version literal that ends in a NUL, whatever byte comes before it (older
 * releases such as 1.20251209.0 keep it right after other data, so a
 * pattern between NULs read "unknown" there).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { v8VersionOf } from '../src/binary.ts';

function binaryWith(...parts: (string | number[])[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rtbench-v8-literal-')), 'workerd');
  writeFileSync(file, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))));
  return file;
}

describe("a workerd binary's V8 version", () => {
  it('is found between NULs, and right after other bytes as older releases store it', async () => {
    expect(await v8VersionOf(binaryWith([0, 0], '15.8.62.5', [0, 0], 'v1.2.3', [0]))).toBe('15.8.62.5');
    expect(await v8VersionOf(binaryWith([0x3a, 0x31, 0x84, 0x68, 0xee], '14.2.231.7', [0, 0, 0], 'libfoo 2.38', [0]))).toBe('14.2.231.7');
  });

  it('is not a longer number\'s tail, and is unknown when two candidates tie', async () => {
    expect(await v8VersionOf(binaryWith([0], '114.2.231.7', [0]))).toBe('unknown');
    expect(await v8VersionOf(binaryWith([0], '14.2.231.7', [0, 0], '13.6.233.17', [0]))).toBe('unknown');
  });
});
