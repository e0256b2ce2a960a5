/**
 * The CLI bundle's imports through a package's index (barrel-imports.ts):
 * which statements are read, which modules count as an index, and how an
 * import is rewritten to name the modules that declare its names.
 */
import { describe, expect, it } from 'vitest';
import { exportsOf, headStatements, rewrittenStatement, takenNames, type HeadStatement } from '../src/barrel-imports.ts';

const only = (text: string): HeadStatement => {
  const [statement, ...more] = headStatements(text).statements;
  expect(more).toEqual([]);
  return statement!;
};

describe("a module's head", () => {
  it('holds its leading imports and re-exports, past comments and a #! line, up to the first other statement', () => {
    const text = [
      '#!/usr/bin/env node',
      '/** a module */',
      "import { a, type B } from '@rtbench/x';",
      '// why',
      "import './effect.ts';",
      'import type { C } from "./c.ts";',
      "export { d as e } from './d.ts'",
      "const s = `import { z } from '@rtbench/z';`;",
      "import { late } from './late.ts';",
    ].join('\n');
    const { statements, rest } = headStatements(text);
    expect(statements.map((s) => [s.keyword, s.typeOnly, s.clause, s.specifier])).toEqual([
      ['import', false, '{ a, type B }', '@rtbench/x'],
      ['import', false, '', './effect.ts'],
      ['import', true, '{ C }', './c.ts'],
      ['export', false, '{ d as e }', './d.ts'],
    ]);
    // Past the first statement of code nothing is read: a template literal there is not an import.
    expect(text.slice(rest)).toMatch(/^const s = /);
  });

  it('reads a statement over several lines', () => {
    expect(only("import {\n  a,\n  b,\n} from '@rtbench/x';\n").clause).toBe('{\n  a,\n  b,\n}');
  });
});

describe("what a module exports", () => {
  it('holds the names its leading statements pass on, under their new names (types left out), and the modules it passes on whole', () => {
    const info = exportsOf("/** x */\nexport { a, b as c, type T } from './ab.ts';\nexport type { U } from './u.ts';\nexport type * from './types.ts';\nexport * from './views/index.ts';\n");
    expect(Object.fromEntries(info.names)).toEqual({ a: { from: './ab.ts', name: 'a' }, c: { from: './ab.ts', name: 'b' } });
    expect(info.whole).toEqual(['./views/index.ts']);
    expect(info.declares('a')).toBe(false);
  });

  it('tells the names it declares itself, and no name that merely begins like one', () => {
    const info = exportsOf("import { x } from './x.ts';\nexport { y } from './y.ts';\nexport function viewOfRun() {}\nexport async function* rows() {}\nexport const LIMIT = 1;\nexport class Err extends Error {}\nconst kept = 2;\nexport { kept as shown, type T };\n");
    for (const name of ['viewOfRun', 'rows', 'LIMIT', 'Err', 'shown']) expect(info.declares(name)).toBe(true);
    for (const name of ['view', 'kept', 'T', 'x', 'y']) expect(info.declares(name)).toBe(false);
  });
});

describe('an import through an index', () => {
  const declared = (name: string) => ({ a: { path: '/p/a.ts', name: 'a' }, b: { path: '/p/b.ts', name: 'inner' }, a2: { path: '/p/a.ts', name: 'a2' } })[name];

  it('names the module that declares each name, keeps what is unknown with the index, and puts types in an erased import', () => {
    const statement = only("import { a, b as local, a2, type T, unknown } from '@rtbench/x';");
    expect(rewrittenStatement(statement, declared)).toBe(
      'import { a, a2 } from "/p/a.ts"; import { inner as local } from "/p/b.ts"; import { unknown } from "@rtbench/x"; import type { T } from "@rtbench/x";',
    );
  });

  it('keeps the lines it took, so source maps still point at the right lines', () => {
    const statement = only("export {\n  b,\n} from '@rtbench/x';");
    expect(rewrittenStatement(statement, declared)).toBe('export { inner as b } from "/p/b.ts";\n\n');
  });

  it('takes the names of a braced statement as the module it names exports them, types left out', () => {
    expect(takenNames(only("import { a, b as local, type T } from '@rtbench/x';"))).toEqual(['a', 'b']);
    expect(takenNames(only("import type { a } from '@rtbench/x';"))).toBeUndefined();
    expect(takenNames(only("import * as x from '@rtbench/x';"))).toBeUndefined();
  });

  it('leaves a default, a namespace, a type-only or an empty import as written', () => {
    for (const text of ["import x from '@rtbench/x';", "import * as x from '@rtbench/x';", "import type { a } from '@rtbench/x';", "import {} from '@rtbench/x';", "import './x.ts';"]) {
      expect(rewrittenStatement(only(text), declared)).toBeUndefined();
    }
  });
});
