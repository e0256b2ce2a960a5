/** `rtbench suites`: each suite and what it measures (its README's heading). */
import { displayWidth, padToWidth, truncateToWidth } from '@rtbench/report';
import { listSuites, suiteSummary, type SuiteLocation } from '@rtbench/suite-loader';
import { listingFormat, writeListing } from '../listing.ts';
import { command } from '../options/command.ts';
import { LISTING_OPTIONS } from '../options/shared.ts';

/** One line per suite, its name and what it measures (its README's heading), within 100 columns; then where the rest is said. */
function suitesText(suites: readonly SuiteLocation[]): string {
  const width = Math.max(0, ...suites.map((s) => displayWidth(s.name)));
  const lines = suites.map((s) => {
    return truncateToWidth(`${padToWidth(s.name, width)}  ${suiteSummary(s) ?? ''}`.trimEnd(), 100);
  });
  const readme = [
    "Each suite's README (bench/<suite>/README.md) says what its cases measure and how to read them,",
    'e.g. why ssr sets NODE_ENV=production; `rtbench bench --help` lists the options.',
  ];
  return `${[...lines, '', ...readme].join('\n')}\n`;
}

export const suites = command({
  name: 'suites',
  positionals: [],
  summary: 'List the suites',
  options: LISTING_OPTIONS,
  run: (_, flags) => {
    const suites = listSuites();
    const names = suites.map((s) => s.name);
    writeListing(listingFormat(flags) === 'json' ? `${JSON.stringify(names, null, 2)}\n` : suitesText(suites), flags);
    return 0;
  },
});
