/**
 * Every repository path named in the docs, the READMEs and source comments,
 * and the ones that do not exist. `test/named-paths.test.ts` runs it in
 * `pnpm test`, so a page or a comment cannot point at a file that moved.
 *
 *   npx tsx scripts/checks/named-paths.ts          prints each dead path: where it is named, what it names
 *   npx tsx scripts/checks/named-paths.ts --all    every path named, dead or not
 *
 * Exits 1 when a path is dead. What counts as a path:
 * - a markdown link's target (not a URL), resolved from the page, and its `#anchor` when it
 *   points into a markdown page: a heading of that page, as GitHub makes anchors from headings;
 *   and a page's section named in quotes after it (`docs/comparing.md, "Calibration"`): how one of
 *   its headings, or a paragraph's bold lead, begins;
 * - a word that starts with a top-level folder of the repository (`packages/cli/src/plan.ts`,
 *   `docs/comparing.md`, `.github/workflows/benchmarks.yml`), resolved from the root, or, when
 *   nothing is there, from the package the naming file is in (a package's README naming its `test/`);
 * - a word that starts with a package's or plug-in's folder name and `src/` or `test/`
 *   (`cli/src/plan.ts`): the way comments name a file in a sibling package.
 * A word holding a placeholder (`<suite>`, `*`, `{a,b}`, `$1`, `…`) names a pattern and is skipped, as
 * are the example paths in EXAMPLES and a path at a commit (`a1578c6:scripts/order-effect.ts`).
 * A bare file name (`plan.ts`) is not checked: it is often a
 * sibling package's file named by its name alone, and which one is for the reader to know.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from './typescript.ts';
import { commentRanges, sourceFiles } from './source-syntax.ts';

const repoRoot = join(import.meta.dirname, '../..');

/**
 * Paths the docs name in a user's tree or in what a command creates, not in this checkout: the suite
 * docs/writing-a-suite.md has a reader write, brought files and saved runs in examples of commands,
 * the folder a bisect creates. A source comment writes an example with a placeholder instead.
 */
const EXAMPLES = new Set(['bench/my-suite', 'bench/my-suite/index.ts', 'bench/x.mjs', 'bench/parse.bench.mjs', 'results/before.json', 'results/after.json', 'results/bisect']);

export interface NamedPath {
  /** The file that names it, from the repository's root. */
  readonly file: string;
  readonly line: number;
  /** As written. */
  readonly text: string;
  /** The path it resolves to, from the repository's root. */
  readonly path: string;
  /** A markdown link's `#fragment` into a markdown page: a heading of that page. */
  readonly anchor?: string;
  /** A section named after a page in quotes (`docs/comparing.md, "Calibration"`): how one of its headings, or a bold lead, begins. */
  readonly section?: string;
}

/** Top-level folders .gitignore names (`.rtbench-cache/`): what a run leaves on disk is not the tree the docs describe. */
function ignoredFolders(): Set<string> {
  const lines = readFileSync(join(repoRoot, '.gitignore'), 'utf8').split('\n');
  return new Set(lines.flatMap((l) => /^\/?([^/*!#\s]+)\/?$/.exec(l.trim())?.[1] ?? []));
}

/** The repository's top-level folders, as a clone has them. */
function topFolders(): string[] {
  const ignored = ignoredFolders();
  return readdirSync(repoRoot).filter((name) => name !== '.git' && !ignored.has(name) && statSync(join(repoRoot, name)).isDirectory());
}

/** `cli` → `packages/cli`, `node` → `runners/node`: how comments name a sibling package's files. */
function packageFolders(): Map<string, string> {
  const out = new Map<string, string>();
  for (const top of ['packages', 'runners']) for (const name of readdirSync(join(repoRoot, top))) out.set(name, `${top}/${name}`);
  return out;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Words that start with one of `roots` and a slash, as far as a path's characters go. */
function wordsUnder(roots: readonly string[]): RegExp {
  return new RegExp(`(?<![\\w./@~-])(?:${roots.map(escape).join('|')})/[^\\s\`'"()\\[\\],;|]*`, 'g');
}

/** What a word names, or nothing when it names a pattern. Trailing punctuation, `:line` and `#anchor` are not part of the path. */
function pathOf(word: string): string | undefined {
  const bare = word.replace(/#.*$/, '').replace(/(:\d+)+$/, '').replace(/[.:!?]+$/, '').replace(/\/$/, '');
  if (/[<>*{}$…&]|\.\.\./.test(bare)) return undefined;
  return bare;
}

/** The markdown links of a page, with their lines (reference-style and inline). */
function markdownLinks(text: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1]!, line: i + 1 });
    const ref = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (ref) out.push({ target: ref[1]!, line: i + 1 });
  });
  return out;
}

const isUrl = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchor for a heading: lower case, no punctuation but `-` and `_`, spaces as `-`. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The anchors of a markdown page's headings (a repeated heading's second is `-1`), and the ones its HTML names. */
function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.replace(/```[^]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(m[1]!);
    let anchor = base;
    for (let i = 1; out.has(anchor); i++) anchor = `${base}-${i}`;
    out.add(anchor);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) out.add(m[1]!);
  return out;
}

/** Paths named in one stretch of prose (a page, or a comment starting at `firstLine`). */
function namedIn(file: string, text: string, firstLine: number, rootWords: RegExp, packageWords: RegExp, packages: Map<string, string>): NamedPath[] {
  const out: NamedPath[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(rootWords)) {
      // `a1578c6:scripts/order-effect.ts` is git's name for a file at a commit, as a removed script is cited: not this checkout's.
      if (/\b[0-9a-f]{7,40}:$/.test(line.slice(0, m.index))) continue;
      const path = pathOf(m[0]);
      const section = path?.endsWith('.md') ? /^,?\s*"([^"]+)"/.exec(line.slice(m.index + m[0].length))?.[1] : undefined;
      if (path && !EXAMPLES.has(path)) out.push({ file, line: firstLine + i, text: m[0], path, ...(section ? { section } : {}) });
    }
    for (const m of line.matchAll(packageWords)) {
      const path = pathOf(m[0]);
      const folder = packages.get(m[0].split('/')[0]!);
      if (path && folder) out.push({ file, line: firstLine + i, text: m[0], path: `${folder}/${path.split('/').slice(1).join('/')}` });
    }
  });
  return out;
}

/** Every markdown page of the tree (or under `dir`), node_modules and ignored folders aside. */
export function markdownFiles(dir = repoRoot, skip: ReadonlySet<string> = new Set([...ignoredFolders(), 'node_modules', '.git'])): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skip.has(name)) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path, skip);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** JavaScript files under `dir` (scripts' helpers, fixtures, examples), node_modules aside. */
function javascriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return javascriptFiles(path);
    return /\.(mjs|cjs|js)$/.test(name) ? [path] : [];
  });
}

/** The sources whose comments are read: every package's and plug-in's, the suites', the scripts', the tests', the root's configuration. */
function commentedSources(): string[] {
  const rootConfigs = readdirSync(repoRoot).filter((n) => /\.(ts|cjs)$/.test(n)).map((n) => join(repoRoot, n));
  return [...['packages', 'runners', 'bench', 'scripts', 'test', 'examples'].flatMap((top) => [...sourceFiles(join(repoRoot, top)), ...javascriptFiles(join(repoRoot, top))]), ...rootConfigs];
}

/** Every path named in the docs, READMEs and source comments. */
export function namedPaths(): NamedPath[] {
  const packages = packageFolders();
  const rootWords = wordsUnder(topFolders());
  // A package's own folder is a path only when `src/` or `test/` follows it: `run/` alone is a word.
  const packageWords = new RegExp(`(?<![\\w./@~-])(?:${[...packages.keys()].map(escape).join('|')})/(?:src|test)/[^\\s\`'"()\\[\\],;|]*`, 'g');
  const out: NamedPath[] = [];
  for (const page of markdownFiles()) {
    const file = relative(repoRoot, page);
    const text = readFileSync(page, 'utf8');
    out.push(...namedIn(file, text, 1, rootWords, packageWords, packages));
    for (const link of markdownLinks(text)) {
      if (isUrl(link.target)) continue;
      const anchor = /#(.+)$/.exec(link.target)?.[1];
      const path = link.target.startsWith('#') ? file : pathOf(link.target);
      if (!path) continue;
      const resolved = link.target.startsWith('#') ? file : relative(repoRoot, join(dirname(page), path));
      out.push({ file, line: link.line, text: link.target, path: resolved, ...(anchor && resolved.endsWith('.md') ? { anchor: decodeURIComponent(anchor) } : {}) });
    }
  }
  for (const source of commentedSources()) {
    const file = relative(repoRoot, source);
    const content = readFileSync(source, 'utf8');
    // A comment is part of its file's text: a file where neither kind of word occurs at all names nothing, and is not parsed.
    if (content.search(rootWords) < 0 && content.search(packageWords) < 0) continue;
    const parsed = ts.createSourceFile(source, content, ts.ScriptTarget.Latest, true);
    for (const c of commentRanges(parsed)) out.push(...namedIn(file, c.text, c.line, rootWords, packageWords, packages));
  }
  return out;
}

/** The folder of the package (a folder with a package.json, below the root) that holds `file`, if any. */
function packageOf(file: string): string | undefined {
  for (let dir = dirname(file); dir !== '.' && dir !== ''; dir = dirname(dir)) if (existsSync(join(repoRoot, dir, 'package.json'))) return dir;
  return undefined;
}

/** Whether a heading of the page, or a paragraph's bold lead (`**Long operations.**`), begins with `section`. */
const sectionStarts = (page: string, section: string): boolean => page.split('\n').some((l) => l.replace(/^(#{1,6}\s+|\W*\*\*)/, '').startsWith(section) && /^(#{1,6}\s|\W*\*\*)/.test(l));

/** The named paths that name nothing in the tree, and links to a heading a page does not have. */
export function deadPaths(named: readonly NamedPath[] = namedPaths()): NamedPath[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (page: string): Set<string> => anchors.get(page) ?? anchors.set(page, anchorsOf(readFileSync(join(repoRoot, page), 'utf8'))).get(page)!;
  return named.filter((n) => {
    if (existsSync(join(repoRoot, n.path))) {
      if (!statSync(join(repoRoot, n.path)).isFile()) return false;
      if (n.anchor !== undefined && !anchorsIn(n.path).has(n.anchor)) return true;
      return n.section !== undefined && !sectionStarts(readFileSync(join(repoRoot, n.path), 'utf8'), n.section);
    }
    const own = packageOf(n.file);
    return !(own && !n.path.startsWith(`${own}/`) && existsSync(join(repoRoot, own, n.path)));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const named = namedPaths();
  const dead = deadPaths(named);
  for (const n of process.argv.includes('--all') ? named : dead) console.log(`${n.file}:${n.line}  ${n.text}${n.text === n.path ? '' : `  (${n.path}${n.anchor ? `#${n.anchor}` : ''})`}${n.section ? ` "${n.section}"` : ''}`);
  console.log(`${dead.length} dead of ${named.length} paths named (${new Set(named.map((n) => n.path)).size} distinct)`);
  process.exitCode = dead.length > 0 ? 1 : 0;
}
