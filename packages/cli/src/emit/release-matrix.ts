/**
 * A release matrix's answer as the releases and merge commands print it
 * (text or JSON, and where its page and report are), and the warnings its
 * runs gave.
 */
import { join } from 'node:path';
import { printable, type ReleaseMatrixView } from '@rtbench/report';
import { writeView, type ListingFlags } from '../listing.ts';
import { stderrColours as pc } from './colours.ts';

/** Prints the matrix's answer: text (or JSON), and where the page and the report are. */
export function emitMatrix(view: ReleaseMatrixView, flags: ListingFlags): void {
  writeView(view, flags);
  for (const note of view.notes ?? []) process.stderr.write(`${pc.yellow('warning:')} ${printable(note, { oneLine: true })}\n`);
  if (!flags.quiet) process.stderr.write(pc.dim(`page ${join(view.folder, 'releases.html')}; report ${join(view.folder, 'releases.md')}\n`));
}
