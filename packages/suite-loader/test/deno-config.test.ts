/**
 * Bare imports of a Deno file resolved from its deno.json as deno resolves
 * them: the member's import map, then the workspace root's, then the
 * workspace's packages by name and export; network targets refused with the
 * reason; files under no deno.json left to the bundler.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DenoResolver, mapImport, splitPackage } from '../src/deno-config.ts';

const WORKSPACE = resolve('test/fixtures/brought/deno-workspace');
const BENCH = join(WORKSPACE, 'bench');

describe('deno.json resolution', () => {
  const deno = new DenoResolver();

  it('a workspace member by name, its "." export and a named export', () => {
    expect(deno.resolve('@fixture/pad', BENCH)).toEqual({ path: join(WORKSPACE, 'pad', 'mod.ts') });
    expect(deno.resolve('@fixture/pad/left', BENCH)).toEqual({ path: join(WORKSPACE, 'pad', 'left.ts') });
  });

  it("the member's own import map first, then the root's (a prefix key), relative to the config that maps it", () => {
    expect(deno.resolve('pad-alias', BENCH)).toEqual({ path: join(WORKSPACE, 'pad', 'left.ts') });
    expect(deno.resolve('#data/words.ts', BENCH)).toEqual({ path: join(WORKSPACE, 'data', 'words.ts') });
  });

  it('an export the member does not have, and a jsr: target outside the workspace: the reason, naming the config', () => {
    expect(deno.resolve('@fixture/pad/right', BENCH)).toEqual({ error: expect.stringContaining('exports no "./right"') });
    expect(deno.resolve('@fixture/remote', BENCH)).toEqual({ error: expect.stringMatching(/maps to jsr:@fixture\/remote@\^1 in .*bench\/deno\.json, which deno fetches from the network/) });
  });

  it('relative imports, node: builtins, unknown bare names and files under no deno.json are not its to resolve', () => {
    expect(deno.resolve('./x.ts', BENCH)).toBeUndefined();
    expect(deno.resolve('node:fs', BENCH)).toBeUndefined();
    expect(deno.resolve('left-pad', BENCH)).toBeUndefined();
    expect(deno.resolve('@fixture/pad', mkdtempSync(join(tmpdir(), 'no-deno-json-')))).toBeUndefined();
  });

  it('a deno.jsonc with comments is refused with one line saying what rtbench reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deno-jsonc-'));
    writeFileSync(join(dir, 'deno.jsonc'), '{ // comment\n "imports": {} }');
    expect(() => new DenoResolver().resolve('x', dir)).toThrow(/deno\.jsonc: not read as JSON .*comment-free deno\.jsonc/);
  });
});

describe('import map pieces', () => {
  it('exact keys win over prefixes; the longest prefix wins', () => {
    const map = { 'a/': './a/', 'a/b/': './ab/', 'a/b/c': './exact.ts' };
    expect(mapImport(map, 'a/b/c')).toBe('./exact.ts');
    expect(mapImport(map, 'a/b/d.ts')).toBe('./ab/d.ts');
    expect(mapImport(map, 'a/x.ts')).toBe('./a/x.ts');
    expect(mapImport(map, 'b')).toBeUndefined();
  });

  it('package name and subpath, with or without a version', () => {
    expect(splitPackage('@std/testing/mock')).toEqual(['@std/testing', './mock']);
    expect(splitPackage('@std/testing@^1.0.0/mock')).toEqual(['@std/testing', './mock']);
    expect(splitPackage('@std/text')).toEqual(['@std/text', '.']);
    expect(splitPackage('chalk')).toEqual(['chalk', '.']);
  });
});
