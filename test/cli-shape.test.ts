/**
 * The CLI's shape as facts (scripts/checks/cli-shape.ts, read by the structure
 * targets): a command is declared in its own module, each command module
 * declares its command, and args/ only parses. Planted here; the tree itself
 * is checked by test/structure-targets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { cliShapeFindings } from '../scripts/checks/cli-shape.ts';

const file = (path: string, text: string) => ({ path: `packages/cli/src/${path}`, text });
const declares = (name: string): string => `export const ${name} = command({ name: '${name}', positionals: [], summary: '', options: [], run: () => 0 });\n`;

describe("the CLI's shape", () => {
  it('a command in its own module, and its own parts beside it, are no finding', () => {
    expect(cliShapeFindings([file('commands/report.ts', declares('report')), file('commands/runtimes-platform.ts', 'export const x = 1;\n'), file('args/args.ts', "import { UsageError } from '../errors.ts';\n")])).toEqual([]);
  });

  it('a command declared in a shared list, a command module without its command, and args/ importing a command are findings', () => {
    const findings = cliShapeFindings([
      file('args/command-line.ts', `import { measureSuite } from '../run/measure-suite.ts';\n${declares('bench')}`),
      file('commands/report.ts', 'export function reportCommand(): number {\n  return 0;\n}\n'),
    ]);
    expect(findings.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([
      'packages/cli/src/args/command-line.ts:2 declares the command bench outside packages/cli/src/commands/bench.ts',
      'packages/cli/src/args/command-line.ts:0 args/ imports ../run/measure-suite.ts',
      'packages/cli/src/commands/report.ts:0 declares no command report',
    ]);
  });
});
