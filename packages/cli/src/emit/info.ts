/**
 * Informational lines on stderr ("saved …", "wrote …", "merged …"): what
 * --quiet silences, on every command. Warnings and errors are not
 * informational and are never silenced.
 */
import type { CampaignSay, LineTone } from '@rtbench/campaign';
import { displayWidth, fitLine } from '@rtbench/report';
import { stderrColours as pc } from './colours.ts';

export interface QuietFlag {
  quiet?: boolean;
}

export function info(flags: QuietFlag, line: string): void {
  if (flags.quiet !== true) process.stderr.write(pc.dim(`${line}\n`));
}

const TONE: Readonly<Record<LineTone, (text: string) => string>> = { heading: pc.bold, note: pc.dim, warning: pc.yellow, ending: pc.yellow };

/**
 * A campaign's lines (bisect, a release matrix, claims) on stderr, coloured by
 * their tone; --quiet leaves only why it stopped short. On a terminal a line
 * longer than its width wraps on words as a run's heading does (its aside on
 * lines of its own when it does not fit); a pipe or a file keeps each line
 * whole.
 */
export function campaignSay(flags: QuietFlag, stream: Pick<NodeJS.WriteStream, 'write' | 'columns'> = process.stderr): CampaignSay {
  return (line, tone, aside) => {
    if (flags.quiet === true && tone !== 'ending') return;
    const paint = tone ? TONE[tone] : (text: string) => text;
    const width = stream.columns;
    // Stryker disable next-line StringLiteral: counting more without an aside only sends a line that fits to fitLine, which gives it back whole
    const counted = `${line}${aside ?? ''}`;
    if (!width || displayWidth(counted) <= width) {
      stream.write(`${paint(line)}${aside ? pc.dim(aside) : ''}\n`);
      return;
    }
    const lines = [...fitLine(line, width, paint), ...(aside ? fitLine(`  ${aside.trimStart()}`, width, pc.dim) : [])];
    stream.write(`${lines.join('\n')}\n`);
  };
}
