/** Profile frames in a suite's bundle are read through its source map, kept beside the bundle or inline, to the same places. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleLocator } from '../src/index.ts';

describe('bundleLocator', () => {
  it('maps a frame through a map beside the bundle to the place an inline map gives', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-profile-map-'));
    // Line 2 of the bundle is line 5 of the suite's index.ts.
    const map = { version: 3, sources: ['suite/index.ts'], sourceRoot: `${dir}/`, names: [], mappings: 'AAAA;AAIA' };
    const inline = join(dir, 'node-0.mjs');
    writeFileSync(inline, `x;\nfunction hot() {}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`);
    const beside = join(dir, 'deno-0.mjs');
    writeFileSync(beside, 'x;\nfunction hot() {}\n');
    writeFileSync(`${beside}.map`, JSON.stringify(map));
    const frame = (bundle: string) => ({ functionName: 'hot', scriptId: '1', url: pathToFileURL(bundle).href, lineNumber: 1, columnNumber: 0 });
    const fromBeside = bundleLocator(beside)(frame(beside));
    expect(fromBeside).toEqual({ source: 'suite/index.ts', line: 5, column: 1, inBundle: true });
    expect(bundleLocator(inline)(frame(inline))).toEqual(fromBeside);
    // Without a map the frame keeps the bundle's own position.
    const bare = join(dir, 'bun-0.mjs');
    writeFileSync(bare, 'x;\nfunction hot() {}\n');
    expect(bundleLocator(bare)(frame(bare))).toEqual({ source: 'bun-0.mjs', line: 2, column: 1, inBundle: true });
  });
});
