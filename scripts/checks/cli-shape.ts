/**
 * The CLI's shape, as facts rather than a count of lines: each command
 * declares its arguments, options and run in its own module
 * (packages/cli/src/commands/<name>.ts; a command's own parts are
 * commands/<name>-<part>.ts), and args/ only parses: it imports no command,
 * no option declaration and no run. Read by scripts/checks/structure-targets.ts.
 * A check run in `pnpm test`: test/cli-shape.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import type * as TS from 'typescript';
import ts from './typescript.ts';
import type { SourceText } from './cpu-view.ts';
import { importStatements } from './source-syntax.ts';

const COMMANDS_DIR = 'packages/cli/src/commands/';
const ARGS_DIR = 'packages/cli/src/args/';
/** What args/ must not import: a command, the list or table of them, an option declaration, a run. */
const NOT_FOR_ARGS = /^\.\.\/(commands|options|run)\/|^\.\.\/command-(list|table)\.ts$/;

/** What declares a command: `command`, or `measuringCommand` for one that also takes the measurers' own options. */
const DECLARERS = new Set(['command', 'measuringCommand']);

/** The commands declared in a file: each `command({ name: '<name>', … })` call (or a measuring one), with its line. */
function declaredCommands(source: TS.SourceFile): Array<{ name: string; line: number }> {
  const out: Array<{ name: string; line: number }> = [];
  const visit = (node: TS.Node): void => {
    const spec = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && DECLARERS.has(node.expression.text) ? node.arguments[0] : undefined;
    if (spec && ts.isObjectLiteralExpression(spec)) {
      const name = spec.properties.find((p): p is TS.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'name');
      if (name && ts.isStringLiteral(name.initializer)) out.push({ name: name.initializer.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Each place in the CLI's sources (`files`, paths from the repository's root) that breaks its shape. */
export function cliShapeFindings(files: readonly SourceText[]): Array<{ file: string; line: number; text: string }> {
  return files.flatMap((f) => {
    const source = ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
    const declared = declaredCommands(source);
    const misplaced = declared.filter((d) => f.path !== `${COMMANDS_DIR}${d.name}.ts`).map((d) => ({ file: f.path, line: d.line, text: `declares the command ${d.name} outside ${COMMANDS_DIR}${d.name}.ts` }));
    const own = f.path.startsWith(COMMANDS_DIR) ? /^([a-z]+)\.ts$/.exec(f.path.slice(COMMANDS_DIR.length))?.[1] : undefined;
    const missing = own && !declared.some((d) => d.name === own) ? [{ file: f.path, line: 0, text: `declares no command ${own}` }] : [];
    const imports = f.path.startsWith(ARGS_DIR) ? importStatements(source).filter((i) => NOT_FOR_ARGS.test(i.spec)).map((i) => ({ file: f.path, line: 0, text: `args/ imports ${i.spec}` })) : [];
    return [...misplaced, ...missing, ...imports];
  });
}
