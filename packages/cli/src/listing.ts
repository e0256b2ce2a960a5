/**
 * The output of the commands that list things (`runtimes`, `suites`) and of
 * the planners' answers (a bisect's, a release matrix's): a table or JSON, on
 * stdout or in the -o file, with the same option names as every other command.
 */
import { join } from 'node:path';
import {
  defaultReporter,
  JSON_FLAG,
  jsonPrintable,
  LISTING_FORMATS,
  listingFormatOf,
  printable,
  reporterFor,
  type ListingFormat,
  type ReleaseMatrixView,
  type View,
} from '@rtbench/report';
import { colourOn, columnsOf, stderrColours as pc } from './emit/colours.ts';
import { UsageError } from './errors.ts';
import { info, type QuietFlag } from './emit/info.ts';
import { writeFileAtomically } from '@rtbench/host/files';
import { assertWritableOutput, outputFileOf } from '@rtbench/saved-runs';

export interface ListingFlags extends QuietFlag {
  format?: string;
  json?: boolean;
  output?: string;
}

/** The default table (also by its aliases) or json; anything else is a usage error. Checks the -o file before any work. */
export function listingFormat(flags: ListingFlags): ListingFormat {
  const asked = flags.format === undefined ? undefined : listingFormatOf(flags.format);
  if (flags.format !== undefined && asked === undefined) throw new UsageError(`--format ${flags.format}: this command ` +
    `lists as ${LISTING_FORMATS.join(' or ')}`);
  if (flags.json && asked !== undefined && asked !== JSON_FLAG) throw new UsageError(`choose one output format (got ${asked} and ${JSON_FLAG})`);
  if (outputFileOf(flags.output) !== undefined) assertWritableOutput(flags.output!, '--output');
  return flags.json ? JSON_FLAG : (asked ?? LISTING_FORMATS[0]);
}

/**
 * The listing on stdout or in the -o file, made safe as every output is: JSON
 * with its C1 and bidi controls escaped, text with every control character
 * shown (colours kept on a colour terminal), so a name from a run, a registry
 * or a runtime cannot drive the terminal.
 */
export function writeListing(text: string, flags: ListingFlags): void {
  const json = flags.json === true || (flags.format !== undefined && listingFormatOf(flags.format) === JSON_FLAG);
  const file = outputFileOf(flags.output);
  const colour = file === undefined && colourOn(process.stdout);
  const safe = json ? jsonPrintable(text) : printable(text, { keepColours: colour });
  if (file === undefined) return void process.stdout.write(safe);
  writeFileAtomically(file, safe);
  info(flags, `wrote ${file}`);
}

/** A planner's answer (a bisect's, a release matrix's) in the format asked, through the reporter map, as a listing is written. */
export function writeView(view: View, flags: ListingFlags): void {
  const reporter = listingFormat(flags) === JSON_FLAG ? reporterFor(JSON_FLAG)! : defaultReporter();
  writeListing(reporter.render(view, { color: flags.output === undefined && colourOn(process.stdout), columns: columnsOf(process.stdout) }), flags);
}

/** A release matrix's answer as the releases and merge commands print it (text or JSON), the warnings its runs gave, and where its page and report are. */
export function emitMatrix(view: ReleaseMatrixView, flags: ListingFlags): void {
  writeView(view, flags);
  for (const note of view.notes ?? []) process.stderr.write(`${pc.yellow('warning:')} ${printable(note, { oneLine: true })}\n`);
  if (!flags.quiet) process.stderr.write(pc.dim(`page ${join(view.folder, 'releases.html')}; report ${join(view.folder, 'releases.md')}\n`));
}
