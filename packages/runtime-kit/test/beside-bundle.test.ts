/** What is kept beside a bundle goes with it: a sweep of one kind removes that kind's files of bundles gone, nothing else. */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { keptBeside } from '../src/beside-bundle.ts';

it("removes its kind's files and folders whose bundle is gone, and keeps a present bundle's and another kind's", () => {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-beside-'));
  const kept = join(dir, 'node-aaaa.mjs');
  writeFileSync(kept, 'export {};\n');
  const map = keptBeside('.map');
  const files = [map.pathOf(kept), map.pathOf(join(dir, 'node-gone.mjs')), join(dir, 'node-gone.mjs.other')];
  for (const file of files) writeFileSync(file, '{}');
  mkdirSync(join(map.pathOf(join(dir, 'deno-gone.mjs')), 'inside'), { recursive: true });
  map.removeOrphans(kept);
  expect([...files, map.pathOf(join(dir, 'deno-gone.mjs'))].map(existsSync)).toEqual([true, false, true, false]);
  expect(map.pathOf(kept)).toBe(`${kept}.map`);
});
