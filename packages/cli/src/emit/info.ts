/**
 * Informational lines on stderr ("saved …", "wrote …", "merged …"): what
 * --quiet silences, on every command. Warnings and errors are not
 * informational and are never silenced.
 */
import type { CampaignSay, LineTone } from '@rtbench/campaign';
import { stderrColours as pc } from './colours.ts';

export interface QuietFlag {
  quiet?: boolean;
}

export function info(flags: QuietFlag, line: string): void {
  if (flags.quiet !== true) process.stderr.write(pc.dim(`${line}\n`));
}

const TONE: Readonly<Record<LineTone, (text: string) => string>> = { heading: pc.bold, note: pc.dim, warning: pc.yellow, ending: pc.yellow };

/** A campaign's lines (bisect, a release matrix) on stderr, coloured by their tone; --quiet leaves only why it stopped short. */
export function campaignSay(flags: QuietFlag): CampaignSay {
  return (line, tone, aside) => {
    if (flags.quiet === true && tone !== 'ending') return;
    process.stderr.write(`${tone ? TONE[tone](line) : line}${aside ? pc.dim(aside) : ''}\n`);
  };
}
