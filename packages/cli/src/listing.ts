/**
 * The output of the commands that list things (`runtimes`, `suites`): a
 * table or JSON, on stdout or in the -o file, with the same option names as
 * every other command.
 */
import { UsageError } from './errors.ts';
import { info, type QuietFlag } from './emit/info.ts';
import { writeFileAtomically } from '@rtbench/runtime-kit';
import { assertWritableOutput } from './run/results-file.ts';

export interface ListingFlags extends QuietFlag {
  format?: string;
  json?: boolean;
  output?: string;
}

const LISTING_FORMATS = ['terminal', 'json'] as const;
export type ListingFormat = (typeof LISTING_FORMATS)[number];

/** terminal (also `table`) or json; anything else is a usage error. Checks the -o file before any work. */
export function listingFormat(flags: ListingFlags): ListingFormat {
  const asked = flags.format === 'table' ? 'terminal' : flags.format;
  if (asked !== undefined && !(LISTING_FORMATS as readonly string[]).includes(asked)) {
    throw new UsageError(`--format ${flags.format}: this command lists as ${LISTING_FORMATS.join(' or ')}`);
  }
  if (flags.json && asked !== undefined && asked !== 'json') throw new UsageError(`choose one output format (got ${asked} and json)`);
  if (flags.output !== undefined) assertWritableOutput(flags.output, '--output');
  return flags.json ? 'json' : (asked as ListingFormat | undefined) ?? 'terminal';
}

export function writeListing(text: string, flags: ListingFlags): void {
  if (flags.output === undefined) return void process.stdout.write(text);
  writeFileAtomically(flags.output, text);
  info(flags, `wrote ${flags.output}`);
}
