/**
 * How wide the CLI's lines are: a line a reader takes in at once, without
 * scrolling sideways. Read by scripts/checks/structure-targets.ts, which holds the
 * CLI's sources (packages/cli/src and its launcher, packages/cli/bin) to a
 * width; a long message or help text is wrapped across lines, not squeezed.
 * A check run in `pnpm test`: test/line-widths.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import type { SourceText } from './cpu-view.ts';

/** The widest a line of the CLI's sources may be, in characters. */
export const MOST_LINE_CHARS = 160;

/** Each line of `files` wider than `most` characters (code points, as an editor counts them). */
export function wideLines(files: readonly SourceText[], most = MOST_LINE_CHARS): Array<{ file: string; line: number; chars: number }> {
  return files.flatMap((f) =>
    f.text.split('\n').flatMap((text, i) => {
      const chars = [...text].length;
      return chars > most ? [{ file: f.path, line: i + 1, chars }] : [];
    }),
  );
}
