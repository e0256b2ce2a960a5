/** A brought file's format, detected from its text, in the one vocabulary the adapters declare (adapters/formats.ts). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROUGHT_FORMATS, type BroughtFormat } from '@rtbench/adapters/formats';
import { broughtFileProblem, broughtFormatOfEntry, locateBroughtFile } from '../src/index.ts';

const EXAMPLES: Record<BroughtFormat, string> = {
  mitata: join('examples', 'mitata-json.mjs'),
  tinybench: join('examples', 'tinybench-strings.mjs'),
  'node-core': join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js'),
  'node-bench': join('examples', 'node-bench-json.mjs'),
  'deno-bench': join('examples', 'deno-text.bench.ts'),
};

describe('brought formats', () => {
  it('names each example file by its format, and every declared format has one', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(BROUGHT_FORMATS).sort());
    for (const [format, file] of Object.entries(EXAMPLES)) {
      expect(broughtFileProblem(file)).toBeUndefined();
      expect(broughtFormatOfEntry(locateBroughtFile(file).entry), file).toBe(format);
    }
  });

  it("has no format for a suite's own entry", () => {
    expect(broughtFormatOfEntry(join('bench', 'json-reviver', 'index.ts'))).toBeUndefined();
  });
});
