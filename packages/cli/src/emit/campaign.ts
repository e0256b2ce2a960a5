/**
 * What a command that runs a campaign shows and writes, one writer for all
 * of them: its events worded (campaign-lines.ts) on stderr in their tones,
 * and once it ends, its answer (on stdout or in the -o file, as the command
 * prints a view), the files its planner keeps in its folder (a page, a
 * markdown report) and the --html page, each written whole.
 */
import { join } from 'node:path';
import { writeFileAtomically } from '@rtbench/host/files';
import { MARKDOWN_FLAG, pageReporter, printable, reporterFor, type View } from '@rtbench/report';
import type { CampaignEvent, CampaignListener } from '@rtbench/campaign';
import { eventLines, type CampaignWords } from './campaign-lines.ts';
import { campaignSay, info, type QuietFlag } from './info.ts';

/** How a campaign's answer leaves the command. */
export interface CampaignOutput<V> {
  /** The answer as the command prints it (its format, stdout or -o). */
  answer?(view: V): void;
  /** --html: the answer as a page, at this path or (true) in the folder as `page`. */
  html?: string | true;
  page?: string;
}

const DRAWN = { color: false, columns: 100, plot: false } as const;

/** A view as a file: a page (HTML) or a report (markdown, controls in names shown as every markdown output shows them). */
export function writeViewFile(path: string, kind: 'page' | 'report', view: View): void {
  writeFileAtomically(path, kind === 'page' ? pageReporter().render(view, DRAWN) : printable(reporterFor(MARKDOWN_FLAG)!.render(view, DRAWN)));
}

/** Writes what a finished campaign hands back: its answer, its folder's files, its --html page. */
function writeEnd<V extends View>(
  e: Extract<CampaignEvent<unknown, unknown, unknown, V>, { kind: 'finished' }>,
  output: CampaignOutput<V>,
  flags: QuietFlag,
): void {
  for (const file of e.files) writeViewFile(file.path, file.kind, file.view);
  if (!e.view) return;
  output.answer?.(e.view);
  if (output.html === undefined) return;
  const path = output.html === true ? join(e.dir, output.page ?? 'campaign.html') : output.html;
  writeViewFile(path, 'page', e.view);
  info(flags, `html report ${path}`);
}

/** The command's listener: every event said in its words; the ending written, then said. */
export function campaignListener<F, A, S, V extends View>(
  flags: QuietFlag,
  words: CampaignWords<F, A, S>,
  output: CampaignOutput<V>,
): CampaignListener<F, A, S, V> {
  const say = campaignSay(flags);
  return (event) => {
    if (event.kind === 'finished') writeEnd(event, output, flags);
    for (const line of eventLines(event as CampaignEvent<F, A, S, unknown>, words)) say(line.text, line.tone, line.aside);
  };
}
