/**
 * `rtbench runtimes [<name>]`: every runtime rtbench can run (or one's), its version, engine and binary;
 * `--platform`: runtimes-platform.ts; `<name> --releases`: runtimes-releases.ts.
 */
import { isAbsolute, relative } from 'node:path';
import pico from 'picocolors';
import { colourOn } from '../emit/colours.ts';
import { listingFormat, writeListing, type ListingFlags } from '../listing.ts';
import { repoRoot } from '../paths.ts';
import { listReleases, listRuntimes, platformView, runtimeStore, type RuntimeRow } from '@rtbench/arms';
import { displayWidth, renderGrid, wrapWords, type GridColumn, type GridRow } from '@rtbench/report';
import { DEFAULT_RUNTIMES, runtimePlugins } from '@rtbench/runtime-registry';
import { MEASURERS } from '@rtbench/measurers';
import { parsePlatform, platformViewText } from './runtimes-platform.ts';
import { releasesText } from './runtimes-releases.ts';
import { UsageError } from '../errors.ts';
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

interface RuntimesFlags extends ListingFlags {
  platform?: string;
  releases?: boolean;
  all?: boolean;
}

async function releasesCommand(name: string, flags: RuntimesFlags): Promise<number> {
  const format = listingFormat(flags);
  const all = flags.all === true;
  const listing = await listReleases(name, { all });
  const colour = flags.output === undefined && colourOn(process.stdout);
  writeListing(format === 'json' ? `${JSON.stringify(listing, null, 2)}\n` : releasesText(listing, {
    all,
    cache: displayPath(runtimeStore().dir ?? ''),
    colour,
  }), flags);
  return 0;
}

async function runtimesCommand(name: string | undefined, flags: RuntimesFlags): Promise<number> {
  if (flags.releases && name === undefined) throw new UsageError('--releases lists one runtime\'s releases: name it (rtbench runtimes node --releases)');
  if (flags.all && !flags.releases) throw new UsageError('--all goes with --releases (rtbench runtimes node --releases --all)');
  if (name !== undefined && flags.platform !== undefined) throw new UsageError('--platform lists every runtime: name none');
  if (name !== undefined && flags.releases) return releasesCommand(name, flags);
  const format = listingFormat(flags);
  if (flags.platform !== undefined) {
    const view = platformView(parsePlatform(flags.platform), MEASURERS.every());
    const text = format === 'json' ? `${JSON.stringify(view, null, 2)}\n` : platformViewText(view, flags.output === undefined && colourOn(process.stdout));
    writeListing(text, flags);
    return 0;
  }
  const known = runtimePlugins().map((p) => p.name);
  if (name !== undefined && !known.includes(name as (typeof known)[number])) throw new UsageError(`no runtime "${name}": name one of ${known.join(', ')}`);
  const rows = (await listRuntimes()).filter((r) => name === undefined || r.spec === name || r.spec.startsWith(`${name}@`));
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
    `Default run (rtbench bench <suite> without --runtime): ${defaults}.`,
    'Also: <runtime>=/path/to/binary runs a build of your own (e.g. node=/src/node/out/Release/node).',
    `Any release on npm, written in full, is a variant too ` +
      `(${runtimePlugins().flatMap((r) => (r.releases ? [`${r.name}@${r.releases.tagOf(r.releases.template.version)}`] : [])).join(', ')}): ` +
      `installed into the cache on first use.`,
    `from: workspace = node_modules beside rtbench (its checkout's, or the project's that installed it with its ` +
      `runtimes), cache = installed on demand into ${displayPath(runtimeStore().dir ?? '')}, PATH = <runtime>@system.`,
    runtimePlugins().flatMap((p) => (p.versionNote ? [p.versionNote] : [])).join(' '),
  ].filter(Boolean).flatMap((n) => wrapWords(n, WIDTH));
  writeListing([...runtimesTable(rows, colour), '', ...notes.map((n) => pc.dim(n))].join('\n') + '\n', flags);
  return 0;
}

export const runtimes = command({
  name: 'runtimes',
  positionals: [{ name: 'runtime' }],
  summary: 'List the runtimes rtbench can run (or one of them), with versions, engines and binaries; with --releases, the releases of one that can be named',
  options: [
    {
      name: 'platform',
      kind: 'value',
      value: 'os-arch',
      help: `For another platform (${PLATFORMS.join(', ')}): each pinned runtime's npm package there, and ` +
        `which measurers and host tools work there, as declared; nothing is looked for or installed`,
    },
    {
      name: 'releases',
      kind: 'flag',
      help: 'The releases of the runtime named that a variant can name (node@24.3.0): the newest on ' +
        'npm, the pins and what this machine holds, with the version and engine of each held one',
    },
    { name: 'all', kind: 'flag', help: 'With --releases: every release npm lists, not only the newest' },
    ...LISTING_OPTIONS,
  ],
  run: ([name], flags) => runtimesCommand(name, flags),
});
