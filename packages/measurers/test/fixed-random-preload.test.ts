/** Which processes preload the fixed-random library, decided before a run records its engine flags. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedRandomPreload } from '../src/measurers/instructions.ts';

let dir: string;
let path: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-fixed-random-'));
  path = process.env.PATH;
});
afterEach(() => {
  process.env.PATH = path;
  rmSync(dir, { recursive: true, force: true });
});

describe('fixedRandomPreload', () => {
  it('builds nothing and names no library without a JavaScriptCore variant', () => {
    const said: string[] = [];
    expect(fixedRandomPreload(dir, ['v8', 'v8'], (line) => said.push(line))).toBeUndefined();
    expect(fixedRandomPreload(undefined, ['jsc'], (line) => said.push(line))).toBeUndefined();
    expect(said).toEqual([]);
  });

  it('names no library when it cannot be built, and says so in one line', () => {
    // No C compiler on PATH: nothing to build the library with.
    process.env.PATH = join(dir, 'empty');
    const said: string[] = [];
    expect(fixedRandomPreload(dir, ['v8', 'jsc'], (line) => said.push(line))).toBeUndefined();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^JavaScriptCore counted without fixed OS randomness \(no C compiler/);
  });
});
