/** A suite bundle's source map kept beside it: split off the bundler's output, stored, swept, and read back like an inline one. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapBeside, readBundleMap, splitInlineMap, storeMapBeside } from '../src/source-map-file.ts';

const MAP = { version: 3, sources: ['bench.mjs'], sourceRoot: '/src/', names: [], mappings: 'AAAA;AACA' };
const inline = (code: string): string => `${code}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(MAP)).toString('base64')}\n`;

describe('a bundle source map beside it', () => {
  it('splits the inline map off, leaving every line of code where it was', () => {
    const { code, map } = splitInlineMap(inline('x;\nthrow 1;\n'));
    // The code as suite-loader's bundleCodeHash read it with the map inline (up to the newline before the map's
    // comment), so a bundle's recorded hash is the same as before its map moved beside it.
    expect(code).toBe('x;\nthrow 1;');
    const inlineText = inline('x;\nthrow 1;\n');
    expect(code).toBe(inlineText.slice(0, inlineText.lastIndexOf('\n//# sourceMappingURL=')));
    expect(JSON.parse(map!)).toEqual(MAP);
    expect(splitInlineMap('x;\n// sourceMappingURL is only a word here\n')).toEqual({ code: 'x;\n// sourceMappingURL is only a word here\n' });
  });

  it('reads a map beside the bundle as it reads an inline one, and none when there is neither', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-map-beside-'));
    const withInline = join(dir, 'a.mjs');
    writeFileSync(withInline, inline('x;\n'));
    const withBeside = join(dir, 'b.mjs');
    writeFileSync(withBeside, 'x;\n');
    expect(readBundleMap(withBeside)).toBeUndefined();
    storeMapBeside(withBeside, JSON.stringify(MAP));
    expect(readBundleMap(withBeside)).toEqual({ text: 'x;\n', map: MAP });
    expect(readBundleMap(withInline)?.map).toEqual(MAP);
  });

  it("removes the maps of bundles no longer in the folder, and keeps the others'", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-map-sweep-'));
    const kept = join(dir, 'node-1.mjs');
    writeFileSync(kept, 'x;\n');
    writeFileSync(mapBeside(join(dir, 'node-0.mjs')), '{}');
    storeMapBeside(kept, JSON.stringify(MAP));
    expect(existsSync(mapBeside(join(dir, 'node-0.mjs')))).toBe(false);
    expect(JSON.parse(readFileSync(mapBeside(kept), 'utf8'))).toEqual(MAP);
  });
});
