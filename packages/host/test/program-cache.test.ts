/**
 * The one program cache (program-cache.ts): a stored program is named by the
 * hash of its bytes, a file altered after it was stored is rewritten rather
 * than run, folders are owner-only, and a folder another user could write
 * into is refused; the folder of generated modules is taken only as found,
 * ours and owner-only. No process is started.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash, ownerOnlyDir, storeGeneratedModule, storeNamedFile, storeProgram, UNUSED_PROGRAM_MS } from '../src/program-cache.ts';
import { UnsafeCacheError } from '@rtbench/core/usage-error';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-program-cache-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('storeProgram', () => {
  it("removes another version of the program unused for a week when it stores a new one, and keeps the rest", () => {
    const longAgo = new Date(Date.now() - UNUSED_PROGRAM_MS - 60_000);
    const lately = new Date(Date.now() - UNUSED_PROGRAM_MS + 3_600_000);
    const stale = storeProgram(root, 'node', '.mjs', 'v1').path;
    const recent = storeProgram(root, 'node', '.mjs', 'v2').path;
    const reused = storeProgram(root, 'node', '.mjs', 'v3').path;
    const otherStem = storeProgram(root, 'deno', '.mjs', 'v1').path;
    const otherExt = storeProgram(root, 'node', '.map', 'v1').path;
    const notAVersion = join(root, 'node-notes.mjs');
    writeFileSync(notAVersion, 'kept');
    for (const p of [stale, reused, otherStem, otherExt, notAVersion]) utimesSync(p, longAgo, longAgo);
    utimesSync(recent, lately, lately);
    // A use refreshes its time; storing a new version then removes only what nobody used for a week.
    expect(storeProgram(root, 'node', '.mjs', 'v3').path).toBe(reused);
    expect(statSync(reused).mtimeMs).toBeGreaterThan(lately.getTime());
    const fresh = storeProgram(root, 'node', '.mjs', 'v4').path;
    expect(readdirSync(root).sort()).toEqual([otherStem, otherExt, notAVersion, recent, reused, fresh].map((p) => p.slice(root.length + 1)).sort());
  });

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

describe('storeGeneratedModule', () => {
  const source = 'export default "generated";\n';

  it('gives the same source the same path in the owner-only folder of generated modules, one file however often it is written', () => {
    const programs = join(root, 'programs');
    const first = storeGeneratedModule(programs, 'generated-10000-1', source);
    // As the next run (another process) writes it again.
    expect(storeGeneratedModule(programs, 'generated-10000-1', source)).toBe(first);
    expect(first).toBe(join(programs, 'generated', `generated-10000-1-${contentHash(source)}.mjs`));
    expect(readdirSync(join(programs, 'generated'))).toEqual([`generated-10000-1-${contentHash(source)}.mjs`]);
    expect(statSync(join(programs, 'generated')).mode & 0o777).toBe(0o700);
  });

  it('refuses a folder others could write into as it is, without tightening it, and a link in its place', () => {
    const programs = join(root, 'programs');
    mkdirSync(join(programs, 'generated'), { recursive: true, mode: 0o700 });
    chmodSync(join(programs, 'generated'), 0o777);
    expect(() => storeGeneratedModule(programs, 'g', source)).toThrow(UnsafeCacheError);
    expect(() => storeGeneratedModule(programs, 'g', source)).toThrow(/generated is not this user's own owner-only folder \(owner uid \d+, mode 0777\): .* remove it and rtbench makes it again$/);
    expect(statSync(join(programs, 'generated')).mode & 0o777).toBe(0o777);
    expect(readdirSync(join(programs, 'generated'))).toEqual([]);
    const linked = join(root, 'linked');
    mkdirSync(linked, { mode: 0o700 });
    symlinkSync(join(root, 'elsewhere'), join(linked, 'generated'));
    mkdirSync(join(root, 'elsewhere'), { mode: 0o700 });
    expect(() => storeGeneratedModule(linked, 'g', source)).toThrow(/\(not a folder\)/);
  });

  it('refuses a folder of generated modules that belongs to another user, in a program cache of ours', () => {
    const programs = join(root, 'programs');
    mkdirSync(join(programs, 'generated'), { recursive: true, mode: 0o700 });
    const getuid = process.getuid!;
    // The program cache's own check asks first and finds its folder ours; the generated folder's then finds another owner.
    let asked = 0;
    process.getuid = () => (asked++ === 0 ? getuid() : statSync(programs).uid + 1);
    try {
      expect(() => storeGeneratedModule(programs, 'g', source)).toThrow(/generated is not this user's own owner-only folder \(owner uid \d+, mode 0700\)/);
      expect(asked).toBe(2);
    } finally {
      process.getuid = getuid;
    }
  });
});
