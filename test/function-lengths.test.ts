/**
 * How long a function is (scripts/checks/function-lengths.ts, read by the structure
 * targets): every line from its start to its end, nested functions counted
 * in, whatever its form. Planted here; the tree itself is checked by
 * test/structure-targets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { functionLengths, longFunctions } from '../scripts/checks/function-lengths.ts';

const file = (text: string) => ({ path: 'packages/x/src/a.ts', text });
/** A function of `lines` lines in all: its opening line, `lines - 2` statements and its closing brace. */
const body = (lines: number): string => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('function lengths', () => {
  it('counts each form by its own name, from its first line to its last, the functions nested in it counted in', () => {
    const text = [
      'export function outer(): void {',
      '  const inner = (): number => {',
      '    return 1;',
      '  };',
      '}',
      'class C {',
      '  method(): void {',
      '    return;',
      '  }',
      '}',
      'const expr = function (): void {};',
    ].join('\n');
    expect(functionLengths(file(text)).map((f) => `${f.name}@${f.line}:${f.lines}`)).toEqual(['outer@1:5', 'inner@2:3', 'method@7:3', 'expr@11:1']);
  });

  it('finds a planted function over the limit and none at it', () => {
    const text = `function atLimit(): void {\n${body(120)}\n}\nconst planted = (): void => {\n${body(121)}\n};\n`;
    expect(longFunctions([file(text)], 120)).toEqual([{ file: 'packages/x/src/a.ts', line: 121, name: 'planted', lines: 121 }]);
  });
});
