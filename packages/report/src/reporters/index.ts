/**
 * Every output format, by the name --format takes. A new format is one file
 * implementing Reporter and one entry here.
 */
import { bmfReporter } from './bmf.ts';
import { csvSamplesReporter, csvStatsReporter } from './csv.ts';
import { findingsReporter } from './findings.ts';
import { htmlReporter } from './html.ts';
import { jsonReporter } from './json.ts';
import { markdownReporter } from './markdown.ts';
import type { Reporter } from './reporter.ts';
import { terminalReporter } from './terminal.ts';

export type { Reporter } from './reporter.ts';

export const REPORTERS: Readonly<Record<string, Reporter>> = {
  terminal: terminalReporter,
  markdown: markdownReporter,
  json: jsonReporter,
  csv: csvSamplesReporter,
  'csv-stats': csvStatsReporter,
  bmf: bmfReporter,
  html: htmlReporter,
  findings: findingsReporter,
};

/** Other names users type for a format. */
const FORMAT_ALIASES: Readonly<Record<string, string>> = { md: 'markdown', table: 'terminal' };

/** The reporter for a --format value (aliases resolved), or undefined. */
export function reporterFor(format: string): Reporter | undefined {
  const name = FORMAT_ALIASES[format] ?? format;
  return Object.hasOwn(REPORTERS, name) ? REPORTERS[name] : undefined;
}

export function formatNames(): string[] {
  return Object.keys(REPORTERS);
}

/** The page --html writes beside a run, a bisect or claims. */
export function pageReporter(): Reporter {
  return htmlReporter;
}

/** The format a command prints when none is asked for, and shows a person beside another on stdout. */
export function defaultReporter(): Reporter {
  return terminalReporter;
}

/** The formats a command's own flag stands for: --markdown is --format markdown (--json is --format json). */
export const MARKDOWN_FLAG = 'markdown';
export const JSON_FLAG = 'json';

/** What a listing (runtimes, suites, a bisect's answer) is printed as: the default reporter's table (first) or JSON. */
export const LISTING_FORMATS = ['terminal', JSON_FLAG] as const;
export type ListingFormat = (typeof LISTING_FORMATS)[number];

/** The listing a --format value asks for (aliases resolved), or undefined for a format that lists nothing. */
export function listingFormatOf(format: string): ListingFormat | undefined {
  const name = reporterFor(format)?.format;
  return LISTING_FORMATS.find((f) => f === name);
}
