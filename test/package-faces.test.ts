/**
 * A package's faces (scripts/checks/package-faces.ts, read by the structure
 * targets): each entry its package.json exports, with the names it hands on,
 * its own modules followed and another package's face not counted. Planted
 * here in a package of its own; the host's faces are checked by
 * test/structure-targets.test.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { facesOf, MOST_FACE_NAMES } from '../scripts/checks/package-faces.ts';

describe('package faces', () => {
  it('counts the names each entry hands on, through its own modules only, and finds a face over the limit', () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-faces-'));
    mkdirSync(join(root, 'pkg', 'src'), { recursive: true });
    const exports = { '.': './src/index.ts', './small': './src/small.ts', './data': './data.json' };
    writeFileSync(join(root, 'pkg', 'package.json'), JSON.stringify({ name: '@x/pkg', exports }));
    const many = Array.from({ length: MOST_FACE_NAMES }, (_, i) => `export const a${i} = ${i};`).join('\n');
    writeFileSync(join(root, 'pkg', 'src', 'many.ts'), `${many}\nexport function f(): void {}\n`);
    writeFileSync(join(root, 'pkg', 'src', 'index.ts'), "export * from './many.ts';\nexport * from '@x/other';\n");
    writeFileSync(join(root, 'pkg', 'src', 'small.ts'), "export { a0, a1 as b } from './many.ts';\nexport type { T } from './types.ts';\n");
    expect(facesOf(root, 'pkg')).toEqual([
      { entry: '@x/pkg', file: 'pkg/src/index.ts', names: MOST_FACE_NAMES + 1 },
      { entry: '@x/pkg/small', file: 'pkg/src/small.ts', names: 3 },
    ]);
  });
});
