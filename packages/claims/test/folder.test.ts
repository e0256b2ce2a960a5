/** A claims invocation's folder: results/claims/<slug> as the other campaigns' are, or the one given. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertClaimsFolder, claimsFolder } from '../src/folder.ts';

describe('the claims folder', () => {
  it('is results/claims/<suites, columns and time> by slug, as a bisect\'s or a matrix\'s is', () => {
    const columns = [{ label: '' }, { label: 'node@20' }, { label: 'node@26 --jitless' }];
    expect(claimsFolder('/p/results', ['json-reviver', 'trig'], columns, '20261126-041500Z')).toBe('/p/results/claims/json-reviver-trig-node@20-node@26_--jitless-20261126-041500Z');
    // One invocation without --across: the suites and the time.
    expect(claimsFolder('/p/results', ['json-reviver'], [{ label: '' }], '20261126-041500Z')).toBe('/p/results/claims/json-reviver-20261126-041500Z');
  });

  it('is the folder given with --save', () => {
    expect(claimsFolder('/p/results', ['json-reviver'], [], '20261126-041500Z', '/tmp/mine')).toBe('/tmp/mine');
  });

  it('is checked before anything runs, in one line: /proc, /sys, a file in the way, a made one that exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-claims-folder-'));
    try {
      expect(() => assertClaimsFolder('/proc/rtbench-claims', true)).toThrow(/^--save \/proc\/rtbench-claims: no file can be created in \/proc/);
      expect(() => assertClaimsFolder('/sys/rtbench-claims', true)).toThrow(/^--save \/sys\/rtbench-claims: /);
      writeFileSync(join(dir, 'file'), '{}');
      expect(() => assertClaimsFolder(join(dir, 'file', 'runs'), true)).toThrow(`--save ${join(dir, 'file', 'runs')}: ${join(dir, 'file')} is a file, not a folder`);
      expect(() => assertClaimsFolder(dir, false)).toThrow(`--save ${dir}: exists already`);
      expect(() => assertClaimsFolder(dir, true)).not.toThrow();
      expect(() => assertClaimsFolder(join(dir, 'new', 'runs'), false)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
