/**
 * Informational lines on stderr ("saved …", "wrote …", "merged …"): what
 * --quiet silences, on every command. Warnings and errors are not
 * informational and are never silenced.
 */
import { stderrColours as pc } from './colours.ts';

export interface QuietFlag {
  quiet?: boolean;
}

export function info(flags: QuietFlag, line: string): void {
  if (flags.quiet !== true) process.stderr.write(pc.dim(`${line}\n`));
}
