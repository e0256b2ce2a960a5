/**
 * A package's index only passes on names (`export { a } from './a.ts'`), but
 * esbuild's code splitting follows a module's imports file by file: one name
 * taken from an index put every module the index names into the importer's
 * chunks, so a start loaded all of them before reading its arguments. The
 * CLI's bundle (cli-bundle.ts) rewrites such an import in the CLI's modules to
 * name each module that declares what is imported (`import { a } from
 * '<…>/a.ts'`), so a start loads the modules it uses. Only a module's leading import and export statements are
 * read (the place no string or code can be) to follow a name to its
 * declaration; a name it cannot follow is imported as written.
 */

/** One `import … from '…'` or `export … from '…'` at the head of a module. */
export interface HeadStatement {
  readonly start: number;
  readonly end: number;
  readonly keyword: 'import' | 'export';
  /** `import type …` / `export type …`: erased, never rewritten. */
  readonly typeOnly: boolean;
  /** What is between the keyword and `from`: "{ a, b as c }", "* as ns", "x". */
  readonly clause: string;
  readonly specifier: string;
  /** The statement as written. */
  readonly text: string;
}

/** Where a name passed on by an index is declared: the module (as the index wrote it) and its name there. */
interface PassedName {
  readonly from: string;
  readonly name: string;
}

/** What a module exports (exportsOf). */
export interface ModuleExports {
  /** Names passed on from another module: `export { a as b } from './a.ts'` is b → ('./a.ts', a). */
  readonly names: ReadonlyMap<string, PassedName>;
  /** Modules passed on whole: `export * from './views/index.ts'`. */
  readonly whole: readonly string[];
  /** Whether the module declares this exported name itself. */
  declares(name: string): boolean;
}

/** A name in braces: `b as c` imports b as c; `type X` is a type. */
interface ClauseName {
  readonly name: string;
  readonly as: string;
  readonly type: boolean;
}

const SPACE_OR_COMMENT = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/;
const STATEMENT = /^(import|export)(\s+type(?=[\s{*]))?\s*([^'"`;]*?)\s*\bfrom\s*(['"])([^'"\n]+)\4[ \t]*;?/;
const BARE_IMPORT = /^import\s*(['"])([^'"\n]+)\1[ \t]*;?/;

/** The statements a module opens with, up to the first thing that is neither one nor a comment; `rest`: where that is. */
export function headStatements(text: string): { statements: HeadStatement[]; rest: number } {
  const statements: HeadStatement[] = [];
  let at = text.startsWith('#!') ? text.indexOf('\n') + 1 || text.length : 0;
  for (;;) {
    const tail = text.slice(at);
    const skipped = SPACE_OR_COMMENT.exec(tail);
    if (skipped) {
      at += skipped[0].length;
      continue;
    }
    const bare = BARE_IMPORT.exec(tail);
    if (bare) {
      statements.push({ start: at, end: at + bare[0].length, keyword: 'import', typeOnly: false, clause: '', specifier: bare[2]!, text: bare[0] });
      at += bare[0].length;
      continue;
    }
    const found = STATEMENT.exec(tail);
    if (!found) return { statements, rest: at };
    statements.push({ start: at, end: at + found[0].length, keyword: found[1] as 'import' | 'export', typeOnly: found[2] !== undefined, clause: found[3]!, specifier: found[5]!, text: found[0] });
    at += found[0].length;
  }
}

/** The names of a braced clause, or undefined when the clause is anything else (a default, a namespace). */
function clauseNames(clause: string): ClauseName[] | undefined {
  const braced = /^\{([^{}]*)\}$/.exec(clause.trim());
  if (!braced) return undefined;
  const names: ClauseName[] = [];
  for (const part of braced[1]!.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(part);
    if (!m) return undefined;
    names.push({ name: m[2]!, as: m[3] ?? m[2]!, type: m[1] !== undefined });
  }
  return names;
}

/**
 * What a module exports, as far as can be told without compiling it: the
 * names its leading `export … from` statements pass on, the modules it passes
 * on whole (`export * from`), and whether a name is declared in it (`export
 * function x`, `export { x }`). A name it exports otherwise (`export const
 * { x } = …`) is not known, and its import is left as written.
 */
export function exportsOf(text: string): ModuleExports {
  const names = new Map<string, PassedName>();
  const whole: string[] = [];
  for (const s of headStatements(text).statements) {
    if (s.keyword !== 'export' || s.typeOnly) continue;
    if (s.clause === '*') whole.push(s.specifier);
    else for (const n of clauseNames(s.clause) ?? []) if (!n.type) names.set(n.as, { from: s.specifier, name: n.name });
  }
  const listed = new Set([...text.matchAll(/^export\s*\{([^{}]*)\}\s*;/gm)].flatMap(([, list]) => (clauseNames(`{${list}}`) ?? []).filter((n) => !n.type).map((n) => n.as)));
  const declares = (name: string): boolean =>
    listed.has(name) || new RegExp(`^export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function\\s*\\*?|const|let|var|class|abstract\\s+class|enum)\\s+${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'm').test(text);
  return { names, whole, declares };
}

/** The names (not types) a braced statement imports or passes on, as the module it names exports them; undefined for any other statement. */
export function takenNames(statement: HeadStatement): string[] | undefined {
  if (statement.typeOnly) return undefined;
  return clauseNames(statement.clause)?.filter((n) => !n.type).map((n) => n.name);
}

/** Where a name an index passes on is declared: a module's path and the name there; undefined when not known. */
export type DeclaredAt = (name: string) => { path: string; name: string } | undefined;

/**
 * `statement` (braced names from an index) as statements naming the module
 * that declares each name; a name whose place is unknown stays with the index,
 * types go in an `import type` (erased). On as many lines as the statement
 * was, so the module's source map still points at its lines. Undefined: left
 * as written.
 */
export function rewrittenStatement(statement: HeadStatement, declaredAt: DeclaredAt): string | undefined {
  if (statement.typeOnly) return undefined;
  const names = clauseNames(statement.clause);
  if (!names?.length) return undefined;
  const byModule = new Map<string, string[]>();
  const types: string[] = [];
  const kept: string[] = [];
  for (const n of names) {
    if (n.type) {
      types.push(n.name === n.as ? n.name : `${n.name} as ${n.as}`);
      continue;
    }
    const at = declaredAt(n.name);
    if (!at) {
      kept.push(n.name === n.as ? n.name : `${n.name} as ${n.as}`);
      continue;
    }
    byModule.set(at.path, [...(byModule.get(at.path) ?? []), at.name === n.as ? at.name : `${at.name} as ${n.as}`]);
  }
  const quoted = JSON.stringify(statement.specifier);
  const lines = [...byModule].map(([path, list]) => `${statement.keyword} { ${list.join(', ')} } from ${JSON.stringify(path)};`);
  if (kept.length) lines.push(`${statement.keyword} { ${kept.join(', ')} } from ${quoted};`);
  if (types.length) lines.push(`${statement.keyword} type { ${types.join(', ')} } from ${quoted};`);
  return lines.join(' ') + '\n'.repeat(statement.text.split('\n').length - 1);
}
