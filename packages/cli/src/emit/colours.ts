/**
 * Colour, decided per stream by one rule: never with --no-color or NO_COLOR;
 * always with FORCE_COLOR (other than 0); otherwise when the stream is a
 * terminal (and TERM is not "dumb"). picocolors' own switch looks at stdout
 * only, so a progress line on a terminal's stderr lost its colour when stdout
 * was piped to a file, and stderr redirected to a file got escape codes.
 */
import pc from 'picocolors';

/** A stream's width in columns: COLUMNS when given, else what the terminal says (a pseudo-terminal under `script` says 0), else 100. */
export function columnsOf(stream: Pick<NodeJS.WriteStream, 'columns'>, env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.COLUMNS);
  if (Number.isInteger(given) && given > 0) return given;
  return stream.columns > 0 ? stream.columns : 100;
}

export function colourOn(stream: Pick<NodeJS.WriteStream, 'isTTY'>, argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  if (argv.includes('--no-color') || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Colours for what the CLI writes to stderr (progress, notes, errors). */
export const stderrColours = pc.createColors(colourOn(process.stderr));
/** Colours for what it writes to stdout outside a reporter (the runtimes list). */
const stdoutColours = pc.createColors(colourOn(process.stdout));
