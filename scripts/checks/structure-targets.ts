/**
 * Checks the house's layout targets over the tree (README, "Layout"):
 * which unit may name a runtime, an engine, a measurer or an output format,
 * which package may import which (and that no suite reaches into another's
 * folder), that CPU per request is computed in one view file, where code
 * asks which measurer it holds (only the measurers do), where a CSV key is declared (only the column lists),
 * how long a function under packages/ may be,
 * where report asks a view's kind (nowhere: a record per kind), whether
 * source comments hold dates, whether runtime-kit exports only what plug-ins
 * import, where the CLI declares its commands, and how many floors the
 * packages' import graph stands on.
 * Reads the code with TypeScript's own parser, so a name in a comment is not
 * a name in code and a date in a string is not a date in a comment.
 *
 *   npx tsx scripts/checks/structure-targets.ts          prints each target, its count and where
 *   npx tsx scripts/checks/structure-targets.ts --json   the same as one JSON object
 *
 * Exits 1 when a target is missed. A check run in `pnpm test`:
 * test/structure-targets.test.ts runs it and reads the targets from its list.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type * as TS from 'typescript';
import ts from './typescript.ts';
import { roundSchema, runSchema } from '../../packages/core/src/schema.ts';
import { MEASURERS } from '../../packages/measurers/src/measurers/all.ts';
import { exportedNames, kitExportsNoPluginUses } from './kit-exports.ts';
import { commentRanges, importStatements, moduleSpecifiers as imports, parseSource as parse, sourceFiles, stringLiterals } from './source-syntax.ts';
import { CPU_DECLARATION, cpuViewFindings } from './cpu-view.ts';
import { reachesIntoSuite } from './suite-folders.ts';
import { runtimeGlobalFindings } from './runtime-globals.ts';
import { cliShapeFindings } from './cli-shape.ts';
import { floorsOf, folderGraph, MOST_FLOORS, roomGraph } from './floors.ts';
import { longFunctions, MOST_FUNCTION_LINES } from './function-lengths.ts';
import { MOST_LINE_CHARS, wideLines } from './line-widths.ts';
import { facesOf, MOST_FACE_NAMES } from './package-faces.ts';

const repoRoot = join(import.meta.dirname, '../..');

interface Finding {
  file: string;
  line: number;
  text: string;
}

interface Target {
  name: string;
  findings: Finding[];
}

function packageSources(top: 'packages' | 'runners'): string[] {
  const root = join(repoRoot, top);
  return existsSync(root) ? readdirSync(root).flatMap((name) => sourceFiles(join(root, name, 'src'))) : [];
}

const rel = (file: string): string => relative(repoRoot, file);

/** Every type written as a union of string literals, as text (`'v8' | 'jsc'`). */
function literalUnions(source: TS.SourceFile): Array<{ members: string[]; line: number }> {
  const out: Array<{ members: string[]; line: number }> = [];
  const visit = (node: TS.Node): void => {
    if (ts.isUnionTypeNode(node)) {
      const members = node.types.flatMap((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? [t.literal.text] : []));
      out.push({ members, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const RUNTIME_NAMES = /^(deno|bun|workerd)$|^(deno|bun|workerd)[@:]/i;
/** Every measurer's name and the kind a run it measured saves, as the registry (measurers/all.ts) lists them. */
const MEASURER_NAMES = new Set(MEASURERS.every().flatMap((m) => [m.name, m.record.kind]));
const FORMAT_NAMES = new Set(['markdown', 'terminal']);
const DATE_OR_TIME = /\b20\d\d-\d\d-\d\d\b|\b\d{1,2}:\d\d(:\d\d)?\s*(UTC|Z)\b|\b\d{1,2}:\d\d[–-]\d{1,2}:\d\d\b/;

const inside = (file: string, ...prefixes: string[]): boolean => prefixes.some((p) => rel(file).startsWith(p));

/** String literals in the packages' sources that `matches`, outside the folders and files `allowed` (path prefixes). */
function literalsOutside(name: string, allowed: readonly string[], matches: (text: string) => boolean): Target {
  const findings: Finding[] = [];
  for (const file of packageSources('packages')) {
    if (inside(file, ...allowed)) continue;
    for (const s of stringLiterals(parse(file))) if (matches(s.text)) findings.push({ file: rel(file), line: s.line, text: s.text });
  }
  return { name, findings };
}

function runtimeNames(): Target {
  return literalsOutside("no string literal names 'deno', 'bun' or 'workerd' outside runners/ and the registry", ['packages/runtime-registry/'], (text) => RUNTIME_NAMES.test(text.trim()));
}

function runtimeGlobals(): Target {
  const files = packageSources('packages').map((file) => ({ path: rel(file), text: readFileSync(file, 'utf8') }));
  return { name: 'no code under packages/ names Deno or Bun (a global, or words in a string) outside runners/ and the registry', findings: runtimeGlobalFindings(files, (f) => parse(join(repoRoot, f.path))) };
}

function closedEngines(): Target {
  const findings: Finding[] = [];
  for (const file of [...packageSources('packages'), ...packageSources('runners')]) {
    const source = parse(file);
    for (const u of literalUnions(source)) {
      if (u.members.includes('v8') && u.members.includes('jsc')) findings.push({ file: rel(file), line: u.line, text: u.members.map((m) => `'${m}'`).join(' | ') });
    }
  }
  return { name: "no type closes the engine to 'v8' | 'jsc'", findings };
}

function measurerNames(): Target {
  // The saved schemas name the kinds a record can hold; the wire protocol's job kinds name none (a paced job, not a lockstep one).
  const allowed = [
    'packages/measurers/src/measurers/',
    'packages/measurer-records/src/',
    'packages/core/src/schema.ts',
    // The saved metric's shape, apart from schema.ts without zod: 'instructions' there is a unit.
    'packages/core/src/metric.ts',
    'packages/core/src/profile-manifest.ts',
    'packages/core/src/claims-schema.ts',
  ];
  const named = literalsOutside('no measurer name outside packages/measurers/src/measurers/ (and the saved-run schemas)', allowed, (text) => MEASURER_NAMES.has(text));
  // A measurer named by a plain word: the word is the tables' unit ("6 processes", the processes column) where report lays out cells and columns.
  const asWord = (f: Finding): boolean => f.text === 'processes' && ['packages/report/src/cells/', 'packages/report/src/columns/'].some((p) => f.file.startsWith(p));
  return { ...named, findings: named.findings.filter((f) => !asWord(f)) };
}

/** The constants measurers/all.ts builds its registry from (`new MeasurerRegistry([LOCKSTEP, …])`): each names one descriptor. */
function registryConstants(): string[] {
  const found: string[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isNewExpression(node) && node.expression.getText() === 'MeasurerRegistry' && node.arguments?.[0] && ts.isArrayLiteralExpression(node.arguments[0])) {
      found.push(...node.arguments[0].elements.filter(ts.isIdentifier).map((e) => e.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(join(repoRoot, 'packages', 'measurers', 'src', 'measurers', 'all.ts')));
  if (found.length === 0) throw new Error('packages/measurers/src/measurers/all.ts builds no MeasurerRegistry from a list of descriptors: this check cannot name them');
  return found;
}

/** Names that ask which measurer a run holds: host-timed's case test, the saved kinds, a descriptor by its constant. */
const MEASURER_QUESTIONS = new Set(['isHostCaseSpec', 'MEASURER_KIND', ...registryConstants()]);
/** An operand that is a measurer's identity: `options.measurer`, `measurer.name`, `descriptor.record.kind`. */
const MEASURER_OPERAND = /(^|\.)(measurer|descriptor)(\.name|\.record\.kind)?$|\.options\.measurer$/;

/** Where code under `dirs` (outside `allowed`) asks which measurer it holds: a name above, or a switch or comparison on a measurer's identity. */
function measurerBranches(name: string, dirs: readonly string[], allowed: readonly string[] = []): Target {
  const findings: Finding[] = [];
  for (const file of dirs.flatMap((d) => sourceFiles(join(repoRoot, d)))) {
    if (inside(file, ...allowed)) continue;
    const source = parse(file);
    const at = (node: TS.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const visit = (node: TS.Node): void => {
      if (ts.isIdentifier(node) && MEASURER_QUESTIONS.has(node.text) && !ts.isImportSpecifier(node.parent)) findings.push({ file: rel(file), line: at(node), text: node.text });
      if (ts.isSwitchStatement(node) && MEASURER_OPERAND.test(node.expression.getText(source))) findings.push({ file: rel(file), line: at(node), text: `switch (${node.expression.getText(source)})` });
      if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
        if ([node.left, node.right].some((side) => MEASURER_OPERAND.test(side.getText(source)))) findings.push({ file: rel(file), line: at(node), text: node.getText(source).slice(0, 100) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { name, findings };
}

/**
 * What each measurer records of itself, as the registry gives it: its fields'
 * names (its record schema's keys), the names runs saved before the measurer
 * block used for them, and its command-line options (camel-cased).
 */
function measurerRecordNames(): Map<string, string> {
  const camel = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const names = new Map<string, string>();
  for (const m of MEASURERS.every()) {
    const schema = m.record.schema as { shape?: Record<string, unknown> } | undefined;
    for (const key of [...Object.keys(schema?.shape ?? {}), ...(m.record.olderKeys ?? []), ...(m.options ?? []).map((o) => camel(o.name))]) names.set(key, m.name);
  }
  return names;
}

const RECORD_NAMES = measurerRecordNames();

/** The blocks measurers' rounds hold, as their descriptors declare them (record.rounds), by the measurer that declares each. */
const ROUND_BLOCK_NAMES = new Map(MEASURERS.every().flatMap((m) => Object.keys(m.record.rounds ?? {}).map((key) => [key, m.name] as const)));

/** The saved run's schema (core schema.ts) declares no measurer's field, option or round block: a measurer's own facts live in its blocks, which its descriptor declares. */
function schemaNamesNoMeasurerField(): Target {
  const findings: Finding[] = [];
  const options = runSchema.shape.options.shape as Record<string, unknown>;
  for (const [where, shape] of [['run', runSchema.shape], ['run.options', options]] as const) {
    for (const key of Object.keys(shape)) if (RECORD_NAMES.has(key)) findings.push({ file: 'packages/core/src/schema.ts', line: 0, text: `${where}.${key} (${RECORD_NAMES.get(key)}'s)` });
  }
  for (const key of Object.keys(roundSchema.shape)) if (ROUND_BLOCK_NAMES.has(key)) findings.push({ file: 'packages/core/src/schema.ts', line: 0, text: `round.${key} (${ROUND_BLOCK_NAMES.get(key)}'s)` });
  return { name: "the saved-run schema names no measurer's field, option or round block (each measurer declares its own)", findings };
}

/** Where a file outside packages/measurers/src/measurers/ reads a measurer's recorded field: `x.measurerFields.f`, or `run.options.f` for a field a measurer records (a saved run's options; a view's or a job's options are their own). */
function measurerFieldsReadOutside(): Target {
  const findings: Finding[] = [];
  const files = [...packageSources('packages'), ...sourceFiles(join(repoRoot, 'scripts'))].filter((f) => !inside(f, 'packages/measurers/src/measurers/') && !inside(f, 'packages/measurer-records/src/'));
  for (const file of files) {
    const source = parse(file);
    const visit = (node: TS.Node): void => {
      if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
        const owner = node.expression.getText(source).replace(/\?$/, '');
        const field = ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
        if (/(^|\.)measurerFields$/.test(owner) || (field !== undefined && /(^|\.)(run\w*|record)\.options$/.test(owner) && RECORD_NAMES.has(field))) {
          findings.push({ file: rel(file), line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText(source).slice(0, 100) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { name: "no file outside packages/measurers/src/measurers/ reads a measurer's recorded field (its descriptor reads its block)", findings };
}

/** measurers/all.ts is the one list: nothing outside the folder imports a measurer's own file. */
function oneMeasurerRegistry(): Target {
  const findings: Finding[] = [];
  for (const file of packageSources('packages')) {
    if (inside(file, 'packages/measurers/src/measurers/')) continue;
    for (const spec of imports(file)) if (/measurers\/(?!all\.ts$)[\w-]+\.ts$/.test(spec)) findings.push({ file: rel(file), line: 0, text: spec });
  }
  return { name: 'measurers/all.ts is the only registry: no file outside packages/measurers/src/measurers/ imports a measurer of its own', findings };
}

function formatNames(): Target {
  return literalsOutside("no format name ('markdown', 'terminal') outside packages/report/src/reporters/", ['packages/report/src/reporters/'], (text) => FORMAT_NAMES.has(text));
}

/** A CSV key's shape: lower-case words joined by underscores (ci_low, sample_start_ms). */
const CSV_KEY = /^[a-z0-9]+(?:_[a-z0-9]+)+$/;

/** Each table column is declared once, with its CSV key: no CSV key in a string literal of report's sources outside the column lists. */
function csvKeys(): Target {
  // The column lists: every table's under columns/, and the engine metrics' in metrics.ts (shared with bmf's measures).
  const allowed = ['packages/report/src/columns/', 'packages/report/src/metrics.ts'];
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'packages', 'report', 'src'))) {
    if (inside(file, ...allowed)) continue;
    for (const s of stringLiterals(parse(file))) if (CSV_KEY.test(s.text)) findings.push({ file: rel(file), line: s.line, text: s.text });
  }
  return { name: 'each table column is declared once: no CSV key (a snake_case name) in report outside packages/report/src/columns/ (and the engine metrics\' list)', findings };
}

/** The kinds of view, read from report's `View` union (views/types.ts): each member interface's `kind` literal, wherever under views/ it is declared. */
function viewKinds(): Set<string> {
  const views = join(repoRoot, 'packages', 'report', 'src', 'views');
  const kindOf = new Map<string, string>();
  let members: string[] = [];
  for (const file of sourceFiles(views)) {
    for (const node of parse(file).statements) {
      if (ts.isInterfaceDeclaration(node)) {
        const kind = node.members.find((m) => ts.isPropertySignature(m) && m.name.getText() === 'kind');
        const type = kind && ts.isPropertySignature(kind) ? kind.type : undefined;
        if (type && ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) kindOf.set(node.name.text, type.literal.text);
      }
      if (ts.isTypeAliasDeclaration(node) && node.name.text === 'View' && ts.isUnionTypeNode(node.type)) members = node.type.types.map((t) => t.getText());
    }
  }
  const kinds = members.map((m) => kindOf.get(m));
  if (kinds.length === 0 || kinds.includes(undefined)) throw new Error(`packages/report/src/views: the View union's members (${members.join(', ')}) do not each declare a kind this check can read`);
  return new Set(kinds as string[]);
}

const VIEW_KINDS = viewKinds();

/** Where report's code asks which kind of view it holds (`view.kind === 'bench'`, `switch (view.kind)`), instead of a record per kind. */
function viewKindBranches(): Target {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'packages', 'report', 'src'))) {
    const source = parse(file);
    const at = (node: TS.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const isKind = (node: TS.Expression): boolean => ts.isPropertyAccessExpression(node) && node.name.text === 'kind';
    const isViewKind = (node: TS.Expression): boolean => ts.isStringLiteral(node) && VIEW_KINDS.has(node.text);
    const visit = (node: TS.Node): void => {
      if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(node.operatorToken.kind)) {
        if ((isKind(node.left) && isViewKind(node.right)) || (isKind(node.right) && isViewKind(node.left))) findings.push({ file: rel(file), line: at(node), text: node.getText(source).slice(0, 100) });
      }
      if (ts.isSwitchStatement(node) && isKind(node.expression) && node.caseBlock.clauses.some((c) => ts.isCaseClause(c) && isViewKind(c.expression))) findings.push({ file: rel(file), line: at(node), text: `switch (${node.expression.getText(source)})` });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { name: "no file under packages/report/src asks a view's kind: each format renders a kind through its one record (byKind)", findings };
}

/**
 * What decides from numbers, as stats exports it: a verdict from an interval
 * (comparePaired, compareUnpaired, classify), the units' inference and its
 * interval, false-discovery control, a geomean's interval, the stopping rule.
 * A claim's word, a regression and a change point are made of these.
 */
const STATS_DECIDERS = new Set(['comparePaired', 'compareUnpaired', 'classify', 'applyFdr', 'benjaminiHochberg', 'adjustedConfidence', 'unitInference', 'welchInference', 'intervalAt', 'pValueOf', 'geometricMeanRatio', 'geometricMeanRatioUnpaired', 'pairedStopping']);

/** Where report reaches for what decides: a deciding function of stats, imported into a file under packages/report/src. */
function reportDecidesNothing(): Target {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'packages', 'report', 'src'))) {
    for (const { spec, names } of importedNames(file)) {
      if (spec !== '@rtbench/stats' && !spec.includes('/stats/src/')) continue;
      for (const name of names === 'all' ? ['the whole module'] : names.filter((n) => STATS_DECIDERS.has(n))) findings.push({ file: rel(file), line: 0, text: `${name} from ${spec}` });
    }
  }
  return { name: "no file under packages/report/src decides a claim, a regression or a change point: none imports stats' deciding functions (@rtbench/verdicts decides, report lays out)", findings };
}

/** Names report's entry hands on that @rtbench/verdicts exports: a decision (or a shared shape) reached through report instead of from verdicts. */
function noDecisionFromReport(): Target {
  const decided = new Set(exportedNames(join(repoRoot, 'packages', 'verdicts', 'src', 'index.ts')));
  const findings = exportedNames(join(repoRoot, 'packages', 'report', 'src', 'index.ts'))
    .filter((name) => decided.has(name))
    .map((name) => ({ file: 'packages/report/src/index.ts', line: 0, text: name }));
  return { name: 'nothing imports a decision from report: its entry hands on no name of @rtbench/verdicts', findings };
}

function datedComments(): Target {
  const findings: Finding[] = [];
  for (const file of [...packageSources('packages'), ...packageSources('runners')]) {
    const source = parse(file);
    for (const c of commentRanges(source)) {
      c.text.split('\n').forEach((line, i) => {
        if (DATE_OR_TIME.test(line)) findings.push({ file: rel(file), line: c.line + i, text: line.trim() });
      });
    }
  }
  return { name: 'no source comment holds a date or a time of day', findings };
}

function forbiddenImports(fromPackage: string, toPackage: string): Target {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'packages', fromPackage, 'src'))) {
    for (const spec of imports(file)) {
      if (spec === `@rtbench/${toPackage}` || spec.startsWith(`@rtbench/${toPackage}/`) || spec.includes(`/${toPackage}/src/`)) findings.push({ file: rel(file), line: 0, text: spec });
    }
  }
  return { name: `packages/${fromPackage} imports nothing from packages/${toPackage}`, findings };
}

/** A suite's files (its tests too) import, or name by a relative path (a handler a runtime serves), only their own folder and bench/shared/. */
function suitesStandAlone(): Target {
  const benchDir = join(repoRoot, 'bench');
  const findings: Finding[] = [];
  for (const file of sourceFiles(benchDir)) {
    const paths = [...imports(file).map((text) => ({ text, line: 0 })), ...stringLiterals(parse(file)).filter((s) => s.text.startsWith('../'))];
    for (const { text, line } of paths) {
      const other = reachesIntoSuite(benchDir, file, text);
      if (other !== undefined) findings.push({ file: rel(file), line, text: `${text} (bench/${other}/)` });
    }
  }
  return { name: 'no file under bench/<suite>/ imports or names a file of another suite (shared code lives in bench/shared/)', findings };
}

/** CPU per request's figures are computed in one view file of report (scripts/checks/cpu-view.ts). */
function oneCpuView(): Target {
  const declared = exportedNames(join(repoRoot, CPU_DECLARATION));
  const findings = declared.length ? cpuViewFindings(sourceFiles(join(repoRoot, 'packages', 'report', 'src')).map((file) => ({ path: rel(file), text: readFileSync(file, 'utf8') })), declared) : [{ file: CPU_DECLARATION, line: 0, text: 'declares nothing: the check reads no name' }];
  return { name: 'CPU per request has one view file: no file of report but views/cpu-per-request.ts imports its declaration or the requests\' distribution', findings };
}

function cliTestsInRoot(): Target {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'test'))) {
    // Parsed only where the text names the folder at all: most root tests never do, and parsing them all was most of this check.
    if (!file.endsWith('.test.ts') || !readFileSync(file, 'utf8').includes('packages/cli/src/')) continue;
    for (const spec of imports(file)) if (spec.includes('packages/cli/src/')) findings.push({ file: rel(file), line: 0, text: spec });
  }
  return { name: "no root test imports the CLI's internals (the CLI's tests live in packages/cli/test)", findings };
}

/**
 * What starts a process, as the CLI could import it: Node's process modules,
 * and the exports of the process package, the contract and the run that start
 * a runtime (a job, a session, a warm process, a probe of a binary) or drive a
 * measurer's loop directly. The CLI hands a plan to `executeRun` (and a brought file to
 * `listInRuntime`), which start them beneath it.
 */
const STARTS_A_PROCESS: Record<string, readonly string[] | 'all'> = {
  'node:child_process': 'all',
  child_process: 'all',
  'node:worker_threads': 'all',
  '@rtbench/process': ['startJob', 'spawnTracked', 'runBriefly', 'liveCase', 'warmProcess'],
  '@rtbench/runtime-kit': ['spawnWith', 'processJobs', 'probeOutput'],
  '@rtbench/run': ['executeLoop'],
};

/** Each import of `file` with the names it takes (a namespace, default or bare import takes 'all'). */
function importedNames(file: string): Array<{ spec: string; names: string[] | 'all' }> {
  return importStatements(parse(file)).map((s) => ({ spec: s.spec, names: s.whole ? 'all' : s.named.map((n) => n.name) }));
}

function cliStartsNoProcess(): Target {
  const findings: Finding[] = [];
  for (const file of sourceFiles(join(repoRoot, 'packages', 'cli', 'src'))) {
    for (const { spec, names } of importedNames(file)) {
      // A path into a package's sources counts as the package (../../process/src/process.ts).
      const key = Object.keys(STARTS_A_PROCESS).find((k) => spec === k || spec.startsWith(`${k}/`) || (k.startsWith('@rtbench/') && spec.includes(`/${k.slice(9)}/src/`)));
      if (!key) continue;
      const forbidden = STARTS_A_PROCESS[key]!;
      const taken = forbidden === 'all' ? ['*'] : names === 'all' ? ['the whole module'] : names.filter((n) => forbidden.includes(n));
      for (const name of taken) findings.push({ file: rel(file), line: 0, text: `${name} from ${spec}` });
    }
  }
  return { name: 'no file in packages/cli/src imports what starts a process (child_process, a job, a session, a probe, the loop)', findings };
}

const contractNames = exportedNames(join(repoRoot, 'packages', 'runtime-kit', 'src', 'index.ts')).length;

function contractExports(): Target {
  const findings = kitExportsNoPluginUses(repoRoot).map((name) => ({ file: 'packages/runtime-kit/src/index.ts', line: 0, text: `${name}: no plug-in imports it` }));
  return { name: 'every name runtime-kit exports is imported by a runtime plug-in (runners/, test plug-ins)', findings };
}

const cliRoot = join(repoRoot, 'packages', 'cli', 'src');
const cliSizes = sourceFiles(cliRoot).map((file) => ({ file: rel(file), lines: readFileSync(file, 'utf8').match(/\n/g)?.length ?? 0 }));
const cliLineCount = cliSizes.reduce((sum, f) => sum + f.lines, 0);
const cliLongest = cliSizes.reduce((a, b) => (b.lines > a.lines ? b : a), { file: '', lines: 0 });

function cliCommands(): Target {
  const files = sourceFiles(cliRoot).map((file) => ({ path: rel(file), text: readFileSync(file, 'utf8') }));
  return { name: 'each command declares its options and its run in its own module (packages/cli/src/commands/<name>.ts), and args/ only parses', findings: cliShapeFindings(files) };
}

const floors = floorsOf(roomGraph(repoRoot));
/** Folders whose own folders import one way only: no arrow runs back up between them. */
const ONE_WAY_FOLDERS = ['packages/report/src', 'packages/cli/src'];

/** The house's rooms: runners/ holds the four plug-ins, and the packages' import graph (scripts/checks/floors.ts) stands on at most MOST_FLOORS floors, with no circle. */
function layout(): Target {
  const findings: Finding[] = [];
  for (const runtime of ['node', 'deno', 'bun', 'workerd']) {
    if (!existsSync(join(repoRoot, 'runners', runtime, 'src', 'plugin.ts'))) findings.push({ file: `runners/${runtime}/src/plugin.ts`, line: 0, text: 'missing' });
  }
  if (floors.floors > MOST_FLOORS) findings.push({ file: floors.chain[0]!, line: 0, text: `${floors.floors} floors: ${floors.chain.join(' -> ')}` });
  for (const c of floors.circles) findings.push({ file: c[0]!, line: 0, text: `a circle: ${[...c, c[0]].join(' -> ')}` });
  for (const folder of ONE_WAY_FOLDERS) {
    for (const c of floorsOf(folderGraph(repoRoot, folder)).circles) findings.push({ file: folder, line: 0, text: `a circle of its folders: ${[...c, c[0]].join(' -> ')}` });
  }
  return { name: `runners/ holds the four plug-ins, the packages' import graph stands on at most ${MOST_FLOORS} floors (each package, runners/, bench/ and scripts/ a floor above what it imports) with no circle, and no circle joins the folders of report or of the CLI`, findings };
}

/** Every function in the packages' sources a reader can hold: none longer than MOST_FUNCTION_LINES lines (scripts/checks/function-lengths.ts). */
function functionsReaderCanHold(): Target {
  const files = packageSources('packages').map((file) => ({ path: rel(file), text: readFileSync(file, 'utf8') }));
  const findings = longFunctions(files).map((f) => ({ file: f.file, line: f.line, text: `${f.name}: ${f.lines} lines` }));
  return { name: `no function under packages/ is over ${MOST_FUNCTION_LINES} lines (nested functions counted in)`, findings };
}

/** Every line of the CLI's sources and its launcher a reader takes in at once: none wider than MOST_LINE_CHARS (scripts/checks/line-widths.ts). */
function cliLinesReaderCanHold(): Target {
  const launcher = join(repoRoot, 'packages', 'cli', 'bin');
  const scripts = readdirSync(launcher).filter((name) => name.endsWith('.mjs')).map((name) => join(launcher, name));
  const files = [...sourceFiles(cliRoot), ...scripts].map((file) => ({ path: rel(file), text: readFileSync(file, 'utf8') }));
  const findings = wideLines(files).map((l) => ({ file: l.file, line: l.line, text: `${l.chars} characters` }));
  return { name: `no line of the CLI (packages/cli/src, packages/cli/bin) is over ${MOST_LINE_CHARS} characters`, findings };
}

/** The host in rooms by job: its index and each sub-entry hand on at most MOST_FACE_NAMES names (scripts/checks/package-faces.ts). */
function hostFaces(): Target {
  const findings = facesOf(repoRoot, 'packages/host')
    .filter((f) => f.names > MOST_FACE_NAMES)
    .map((f) => ({ file: f.file, line: 0, text: `${f.entry} hands on ${f.names} names` }));
  return { name: `no face of packages/host (its index, each sub-entry) hands on more than ${MOST_FACE_NAMES} names`, findings };
}

/** Not a target, a figure to watch: the share of source lines that are comments, and the comment blocks longer than 12 lines. */
function commentFigures(): { commentLines: number; lines: number; longBlocks: Finding[] } {
  let commentLines = 0;
  let lines = 0;
  const longBlocks: Finding[] = [];
  for (const file of [...packageSources('packages'), ...packageSources('runners')]) {
    const source = parse(file);
    lines += source.getLineStarts().length;
    // Consecutive comments (a run of // lines) are one block.
    const blocks: Array<{ start: number; end: number }> = [];
    for (const c of commentRanges(source)) {
      const start = c.line;
      const end = c.line + c.text.split('\n').length - 1;
      const last = blocks.at(-1);
      if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
      else blocks.push({ start, end });
    }
    for (const b of blocks) {
      commentLines += b.end - b.start + 1;
      if (b.end - b.start + 1 > 12) longBlocks.push({ file: rel(file), line: b.start, text: `${b.end - b.start + 1} lines` });
    }
  }
  return { commentLines, lines, longBlocks };
}

const targets: Target[] = [
  layout(),
  runtimeNames(),
  runtimeGlobals(),
  closedEngines(),
  measurerNames(),
  formatNames(),
  datedComments(),
  forbiddenImports('run', 'cli'),
  forbiddenImports('report', 'runtime-registry'),
  cliTestsInRoot(),
  suitesStandAlone(),
  oneCpuView(),
  cliStartsNoProcess(),
  measurerBranches("no file under packages/run/src or packages/measurers/src outside measurers/, nor under packages/cli/src, branches on a measurer's kind or on host-timed", ['packages/run/src', 'packages/measurers/src', 'packages/cli/src'], ['packages/measurers/src/measurers/']),
  measurerBranches('no file under packages/report/src switches on the measurer kind', ['packages/report/src']),
  oneMeasurerRegistry(),
  schemaNamesNoMeasurerField(),
  measurerFieldsReadOutside(),
  csvKeys(),
  viewKindBranches(),
  reportDecidesNothing(),
  noDecisionFromReport(),
  contractExports(),
  cliCommands(),
  functionsReaderCanHold(),
  cliLinesReaderCanHold(),
  hostFaces(),
];

const comments = commentFigures();

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ targets, floors: { floors: floors.floors, chain: floors.chain }, comments, contractNames, cliLines: cliLineCount, cliLongest }, null, 2));
} else {
  for (const t of targets) {
    console.log(`${t.findings.length === 0 ? '✓' : '✗'} ${t.name}: ${t.findings.length}`);
    for (const f of t.findings.slice(0, 40)) console.log(`    ${f.file}${f.line ? `:${f.line}` : ''}  ${f.text.slice(0, 100)}`);
    if (t.findings.length > 40) console.log(`    … ${t.findings.length - 40} more`);
  }
  const share = ((100 * comments.commentLines) / comments.lines).toFixed(1);
  console.log(`· comments: ${comments.commentLines} of ${comments.lines} source lines (${share}%); ${comments.longBlocks.length} blocks longer than 12 lines (a figure to watch, not a target)`);
  console.log(`· floors: ${floors.floors} (${floors.chain.join(' -> ')})`);
  console.log(`· runtime-kit exports ${contractNames} names; packages/cli/src holds ${cliLineCount} lines, its longest file ${cliLongest.file} ${cliLongest.lines} (figures to watch, not targets)`);
}
process.exitCode = targets.some((t) => t.findings.length > 0) ? 1 : 0;
