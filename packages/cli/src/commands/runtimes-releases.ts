/**
 * `rtbench runtimes <name> --releases`: a runtime's releases (@rtbench/arms
 * runtime-releases.ts) as text within 100 columns: a line per release, what
 * it is also named, whether this machine holds it and what it says it is,
 * and a note on how to name one and where it would be installed.
 */
import pico from 'picocolors';
import { NEWEST_LISTED, type ReleasesListing } from '@rtbench/arms';
import { renderGrid, wrapWords, type GridColumn } from '@rtbench/report';

const WIDTH = 100;

const COLUMNS: GridColumn[] = [
  { head: 'release', align: 'left' },
  { head: 'npm version', align: 'left' },
  { head: 'also named', align: 'left' },
  { head: 'here', align: 'left' },
  { head: 'engine', align: 'left', wrap: true },
];

/** The listing as text; `all`: whether every release npm lists was asked for; `cache`: where one not here would be installed. */
export function releasesText(listing: ReleasesListing, { all, cache, colour }: { all: boolean; cache: string; colour: boolean }): string {
  const pc = pico.createColors(colour);
  const grid = listing.rows.map((r) => ({ cells: [r.spec, r.npmVersion, r.alsoNamed.join(', ') || '—', r.held ?? '—', r.engine ?? '—'] }));
  const listed =
    listing.published === undefined
      ? `${listing.unlisted}; below, the pins and what this machine holds`
      : all || listing.published <= NEWEST_LISTED
        ? `all ${listing.published} stable releases of ${listing.package} on npm`
        : `the newest ${NEWEST_LISTED} of the ${listing.published} stable releases of ` +
          `${listing.package} on npm, and the pins and what this machine holds (--all: every one)`;
  const notes = [
    `Name a release as a variant: --runtime ${listing.rows.at(-1)?.spec ?? `${listing.runtime}@<version>`}. ` +
      `One not here is installed from npm into ${cache} on first use (RTBENCH_NO_INSTALL=1 forbids it).`,
    'here: workspace = node_modules beside rtbench, cache = installed on demand; engine: what a held release says it runs.',
  ];
  return [
    ...wrapWords(`${listing.runtime}: ${listed}.`, WIDTH).map((l) => pc.bold(l)),
    ...renderGrid(COLUMNS, grid, { maxWidth: WIDTH, bold: pc.bold, dim: pc.dim }),
    '',
    ...notes.flatMap((n) => wrapWords(n, WIDTH)).map((l) => pc.dim(l)),
  ].join('\n') + '\n';
}
