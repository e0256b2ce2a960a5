import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { peakBytesOf, readCellMemoryPeak, stoppedPeak } from '../src/cgroup-memory-peak.ts';

// A cgroup v2 cell's files laid out in a directory of its own: this host's memory controller is cgroup v1.
const root = mkdtempSync(join(tmpdir(), 'rtbench-cell-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function cell(name: string, peak?: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  if (peak !== undefined) writeFileSync(join(dir, 'memory.peak'), peak);
  return dir;
}

describe("a cell's memory.peak", () => {
  it('reads the bytes the kernel wrote', () => {
    expect(readCellMemoryPeak(cell('read', '734003200\n'))).toEqual({ bytes: 734_003_200 });
  });

  it('says why where there is no memory.peak, never 0', () => {
    const peak = readCellMemoryPeak(cell('absent'));
    expect(peak).toEqual({ unavailable: expect.stringMatching(/has no memory\.peak \(a kernel before 5\.19, or no memory controller/) });
    expect(peakBytesOf(peak)).toBeUndefined();
  });

  it('refuses a file that is not a byte count', () => {
    expect(readCellMemoryPeak(cell('garbled', 'max\n'))).toEqual({ unavailable: expect.stringContaining('reads "max", not a byte count') });
  });
});

describe("a stopped process's peak", () => {
  it("is the highest of the host's readings: the cell's memory.peak counts processes that already ended", () => {
    expect(stoppedPeak([600, 550, 900])).toBe(900);
    expect(stoppedPeak([600, undefined, peakBytesOf({ unavailable: 'no memory controller' })])).toBe(600);
  });

  it('is unknown when nothing was read', () => {
    expect(stoppedPeak([undefined, 0])).toBeUndefined();
  });
});
