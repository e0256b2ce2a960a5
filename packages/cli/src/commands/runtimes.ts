/** `rtbench runtimes`: every runtime rtbench can run, its version, engine and binary; `--platform`: runtimes-platform.ts. */
import { isAbsolute, relative } from 'node:path';
import pico from 'picocolors';
import { colourOn } from '../emit/colours.ts';
import { listingFormat, writeListing, type ListingFlags } from '../listing.ts';
import { repoRoot } from '../paths.ts';
import { listRuntimes, platformView, runtimeStore, type RuntimeRow } from '@rtbench/arms';
import { displayWidth, renderGrid, wrapWords, type GridColumn, type GridRow } from '@rtbench/report';
import { DEFAULT_RUNTIMES, runtimePlugins } from '@rtbench/runtime-registry';
import { MEASURERS } from '@rtbench/measurers';
import { parsePlatform, platformViewText } from './runtimes-platform.ts';
import { PLATFORMS } from '@rtbench/process';
import { command } from '../options/command.ts';
import { LISTING_OPTIONS } from '../options/shared.ts';

/** Paths inside the checkout are shown relative to it: the pnpm store paths are long. */
function displayPath(path: string): string {
  const rel = relative(repoRoot, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** A WebKit revision is a 40-digit hash; 12 digits identify it in a table. */
function shortEngine(engine: string): string {
  return engine.replace(/^(JavaScriptCore [0-9a-f]{12})[0-9a-f]{28}$/, '$1');
}

/** Tables are read at 100 columns, like the result table. */
const WIDTH = 100;

const COLUMNS: GridColumn[] = [
  { head: 'runtime', align: 'left' },
  { head: 'version', align: 'left' },
  { head: 'engine', align: 'left' },
  { head: 'from', align: 'left' },
];

/** A path in lines of at most `width` columns, broken after a `/` (a path has no spaces to wrap at). */
export function wrapPath(path: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of path.split(/(?<=\/)/)) {
    if (line && displayWidth(line + part) > width) {
      lines.push(line);
      line = '';
    }
    line += part;
  }
  return [...lines, line];
}

/**
 * The table, within 100 columns, in the style of the result table: a line
 * per runtime, its binary's path (or why it cannot run) dimmed under it.
 */
export function runtimesTable(rows: readonly RuntimeRow[], colour: boolean): string[] {
  const pc = pico.createColors(colour);
  const grid: GridRow[] = rows.map((r) => ({ cells: r.available ? [r.spec, r.version!, shortEngine(r.engine!), r.from!] : [r.spec, '—', '—', '—'] }));
  const [head, rule, ...lines] = renderGrid(COLUMNS, grid, { maxWidth: WIDTH, bold: pc.bold, dim: pc.dim });
  const indent = '    ';
  return [
    head!,
    rule!,
    ...rows.flatMap((r, i) => {
      // A runtime on PATH is optional and one installed on first use is fine; any other missing npm runtime is a problem.
      const under = r.available
        ? wrapPath(displayPath(r.binary!), WIDTH - indent.length).map((l) => pc.dim(indent + l))
        : wrapWords(r.note, WIDTH - indent.length).map((l) => (r.spec.endsWith('@system') || r.installsOnFirstUse ? pc.dim : pc.red)(indent + l));
      return [lines[i]!, ...under];
    }),
  ];
}

async function runtimesCommand(flags: ListingFlags & { platform?: string }): Promise<number> {
  const format = listingFormat(flags);
  if (flags.platform !== undefined) {
    const view = platformView(parsePlatform(flags.platform), MEASURERS.every());
    const text = format === 'json' ? `${JSON.stringify(view, null, 2)}\n` : platformViewText(view, flags.output === undefined && colourOn(process.stdout));
    writeListing(text, flags);
    return 0;
  }
  const rows = await listRuntimes();
  if (format === 'json') {
    writeListing(`${JSON.stringify(rows, null, 2)}\n`, flags);
    return 0;
  }
  const colour = flags.output === undefined && colourOn(process.stdout);
  const pc = pico.createColors(colour);
  // A default named by its bare name that stands for one of its listed specs (`node` = node@26) says which.
  const defaults = DEFAULT_RUNTIMES.map((s) => {
    const meant = rows.find((r) => r.spec.startsWith(`${s}@`) && r.note.includes(`\`${s}\` means this one`));
    return meant ? `${s} (= ${meant.spec})` : s;
  }).join(', ');
  const notes = [
    `Default run (pnpm bench <suite> without --runtime): ${defaults}.`,
    'Also: <runtime>=/path/to/binary runs a build of your own (e.g. node=/src/node/out/Release/node).',
    `Any release on npm, written in full, is a variant too (${runtimePlugins().flatMap((r) => (r.releases ? [`${r.name}@${r.releases.tagOf(r.releases.template.version)}`] : [])).join(', ')}): installed into the cache on first use.`,
    `from: workspace = node_modules of rtbench's checkout, cache = installed on demand into ${displayPath(runtimeStore().dir ?? '')}, PATH = <runtime>@system.`,
    runtimePlugins().flatMap((p) => (p.versionNote ? [p.versionNote] : [])).join(' '),
  ].filter(Boolean).flatMap((n) => wrapWords(n, WIDTH));
  writeListing([...runtimesTable(rows, colour), '', ...notes.map((n) => pc.dim(n))].join('\n') + '\n', flags);
  return 0;
}

export const runtimes = command({
  name: 'runtimes',
  positionals: [],
  summary: 'List the runtimes rtbench can run, with versions, engines and binaries',
  options: [
    {
      name: 'platform',
      kind: 'value',
      value: 'os-arch',
      help: `For another platform (${PLATFORMS.join(', ')}): each pinned runtime's npm package there, and which measurers and host tools work there, as declared; nothing is looked for or installed`,
    },
    ...LISTING_OPTIONS,
  ],
  run: (_, flags) => runtimesCommand(flags),
});
