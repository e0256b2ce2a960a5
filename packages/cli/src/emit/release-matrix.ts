/**
 * A release matrix's answer as the releases and merge commands print it
 * (text or JSON, and where its page and report are), and a refusal of the
 * matrix's folder as the one-line usage error it is.
 */
import { join } from 'node:path';
import { MatrixRefused } from '@rtbench/releases';
import { defaultReporter, JSON_FLAG, reporterFor, type ReleaseMatrixView } from '@rtbench/report';
import { UsageError } from '../errors.ts';
import { listingFormat, writeListing, type ListingFlags } from '../listing.ts';
import { stderrColours as pc } from './colours.ts';

/** Prints the matrix's answer: text (or JSON), and where the page and the report are. */
export function emitMatrix(view: ReleaseMatrixView, flags: ListingFlags): void {
  const reporter = listingFormat(flags) === JSON_FLAG ? reporterFor(JSON_FLAG)! : defaultReporter();
  writeListing(reporter.render(view, { color: false, columns: process.stdout.columns ?? 100 }), flags);
  if (!flags.quiet) process.stderr.write(pc.dim(`page ${join(view.folder, 'releases.html')}; report ${join(view.folder, 'releases.md')}\n`));
}

/** MatrixRefused (a folder that cannot hold this matrix, a filter that picks no case) as the one-line usage error it is. */
export function refusedAsUsage(error: unknown): never {
  throw error instanceof MatrixRefused ? new UsageError(error.message) : error;
}

