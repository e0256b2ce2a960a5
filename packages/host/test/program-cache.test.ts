/**
 * The one program cache (program-cache.ts): a stored program is named by the
 * hash of its bytes, a file altered after it was stored is rewritten rather
 * than run, folders are owner-only, and a folder another user could write
 * into is refused. No process is started.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash, ownerOnlyDir, storeNamedFile, storeProgram, UnsafeCacheError } from '../src/program-cache.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-program-cache-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('storeProgram', () => {
  it('names a program by the hash of its bytes, in an owner-only folder, and leaves no temporary file', () => {
    const dir = join(root, 'programs', 'deep');
    const stored = storeProgram(dir, 'zod start-up/node', '.mjs', 'console.log(1)');
    expect(stored.hash).toBe(contentHash('console.log(1)'));
    expect(stored.path).toBe(join(dir, `zod_start-up_node-${stored.hash}.mjs`));
    expect(readFileSync(stored.path, 'utf8')).toBe('console.log(1)');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(stored.path).mode & 0o077).toBe(0);
    expect(readdirSync(dir)).toEqual([`zod_start-up_node-${stored.hash}.mjs`]);
  });

  it('rewrites a cached file whose bytes no longer match its name, instead of handing it out', () => {
    const code = 'export default "the program";\n';
    const { path } = storeProgram(root, 'p', '.mjs', code);
    writeFileSync(path, `${code}globalThis.fetch = () => "tampered";\n`);
    const again = storeProgram(root, 'p', '.mjs', code);
    expect(again.path).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(code);
  });

  it('tightens a folder of ours that others could write into, and refuses one that is not a folder', () => {
    const loose = join(root, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o777);
    ownerOnlyDir(loose);
    expect(statSync(loose).mode & 0o777).toBe(0o700);
    const file = join(root, 'file');
    writeFileSync(file, '');
    expect(() => storeProgram(file, 'p', '.mjs', 'x')).toThrow(UnsafeCacheError);
    expect(() => storeProgram(file, 'p', '.mjs', 'x')).toThrow(/is not a folder/);
  });

  it('refuses a folder that belongs to another user', () => {
    const dir = join(root, 'theirs');
    mkdirSync(dir);
    const getuid = process.getuid;
    // As if we were another user than the folder's owner.
    process.getuid = () => statSync(dir).uid + 1;
    try {
      expect(() => ownerOnlyDir(dir)).toThrow(/belongs to another user .* will not run programs from a folder someone else controls/);
    } finally {
      process.getuid = getuid;
    }
  });
});

describe('storeNamedFile', () => {
  it('writes a fixed name and rewrites it when the text differs', () => {
    const path = join(root, 'brought', 'entry.ts');
    storeNamedFile(path, 'a');
    writeFileSync(path, 'changed by someone');
    storeNamedFile(path, 'a');
    expect(readFileSync(path, 'utf8')).toBe('a');
    expect(statSync(join(root, 'brought')).mode & 0o777).toBe(0o700);
  });
});
