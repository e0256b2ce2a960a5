/** A brought file's `// rtbench:` comments: the cases whose value is random or per-runtime, read from its text. */
import { describe, expect, it } from 'vitest';
import { declaredValues } from '../src/declared-values.ts';

describe('declared values', () => {
  it('reads each random and per-runtime line, with its case pattern', () => {
    const source = "// rtbench: random ids / *\nimport { Bench } from 'tinybench';\n  //rtbench:per-runtime version  \n// a comment that names rtbench: not a declaration\n";
    expect(declaredValues('x.mjs', source)).toEqual([
      { pattern: 'ids / *', why: 'random' },
      { pattern: 'version', why: 'per-runtime' },
    ]);
  });

  it('refuses a declaration it cannot read, in one line naming the file and the line', () => {
    expect(() => declaredValues('x.mjs', '// rtbench: randm ids\n')).toThrow('x.mjs: "// rtbench: randm ids": expected "// rtbench: random <case>" or "// rtbench: per-runtime <case>" (a case id, * for any text)');
    expect(() => declaredValues('x.mjs', '// rtbench: random\n')).toThrow(/expected "\/\/ rtbench: random <case>"/);
  });
});
