/**
 * A release matrix in words: per track its last step ("26.0.0 → 26.1.0: 2
 * cases slower, 0 faster"), then every change point with the engines on both
 * sides and the command that reproduces it (and the bisect, where --every
 * skipped releases), and, where claims runs were given, one line per claim
 * that changed its word between two releases of a track. As markdown, ready
 * to paste into an upstream issue, as plain text for a terminal, as JSON, or
 * as the page (html/page/releases.ts): each format's renderer of the
 * `releases` kind of view.
 */
import type { ReleaseMatrixView } from '../views/releases.ts';
import { changeText, claimFlips, claimsCheckedLine, lastStepLine, methodLine, progressLine } from '../cells/releases.ts';
import { releasesPageAssets } from '../html/bundle.ts';
import { htmlDocument } from '../html/document.ts';
import { releasesPageData } from '../html/releases-data.ts';
import { markdownCell, markdownFence, oneLine } from '../text.ts';
import pc from 'picocolors';
import { fitCommand, fitLine } from './grid.ts';
import type { ReporterOptions } from './reporter.ts';

export function releasesMarkdown(view: ReleaseMatrixView): string {
  const out: string[] = ['## Release matrix', ''];
  out.push('### Last step of each runtime', '');
  for (const t of view.tracks) out.push(`- ${markdownCell(lastStepLine(t))}`);
  out.push('', `### Change points (${view.changePoints.length})`, '');
  if (!view.changePoints.length) out.push('None.');
  for (const t of view.tracks) {
    const mine = view.changePoints.filter((c) => c.track === t.track.key);
    if (!mine.length) continue;
    out.push(`#### ${markdownCell(t.track.key)} (${markdownCell(t.track.range)})`, '');
    for (const c of mine) {
      out.push(`- **${markdownCell(c.caseId)}**: ${markdownCell(changeText(c))}`, '', ...markdownFence([c.compareCommand, ...(c.bisectCommand ? [c.bisectCommand] : [])], 'sh', '  '), '');
    }
  }
  const flips = claimFlips(view);
  if (flips) {
    out.push('', `### Claims that changed between releases (${flips.length})`, '');
    if (!flips.length) out.push(`None: ${claimsCheckedLine(view)}.`);
    for (const f of flips) out.push(`- **${markdownCell(f.track)}**: ${markdownCell(f.text)}`);
  }
  const progress = progressLine(view);
  out.push('', `<sub>${markdownCell(methodLine(view))}${progress ? ` ${markdownCell(progress)}` : ''}</sub>`, '');
  return `${out.join('\n')}\n`;
}

/** Each line of the text one line, whatever a name in it holds (terminal controls are shown by the output's escaping), wrapped to the width; commands broken between shell words. */
export function releasesText(view: ReleaseMatrixView, options: ReporterOptions = {}): string {
  const width = options.columns ?? 100;
  const bold = pc.createColors(options.color ?? true).bold;
  const text = (line: string, indent = ''): string[] => fitLine(indent + oneLine(line), width);
  const command = (line: string): string[] => fitCommand(oneLine(line), width, '    ');
  const out: string[] = [bold('last step of each runtime')];
  for (const t of view.tracks) out.push(...text(lastStepLine(t), '  '));
  out.push('', bold(`change points: ${view.changePoints.length}`));
  for (const t of view.tracks) {
    for (const c of view.changePoints.filter((x) => x.track === t.track.key)) {
      out.push(...text(`${t.track.key} / ${c.caseId}`, '  '), ...text(changeText(c), '    '), ...command(c.compareCommand), ...(c.bisectCommand ? command(c.bisectCommand) : []));
    }
  }
  const flips = claimFlips(view);
  if (flips) out.push('', ...fitLine(`claims that changed between releases: ${flips.length}${flips.length ? '' : ` (${claimsCheckedLine(view)})`}`, width, bold), ...flips.flatMap((f) => [...text(`${f.track}: ${f.text}`, '  '), ...f.bisect.flatMap(command)]));
  const progress = progressLine(view);
  if (progress) out.push('', ...text(progress));
  out.push('', ...text(methodLine(view)));
  return `${out.join('\n')}\n`;
}

/** The matrix as one self-contained HTML page (no server, no network). */
export function releasesPage(view: ReleaseMatrixView): string {
  return htmlDocument(releasesPageData(view), releasesPageAssets());
}

/** The matrix as JSON, indented, under its schema's name (the view's kind is that name). */
export function releasesJson({ kind: _kind, ...view }: ReleaseMatrixView): string {
  return `${JSON.stringify({ schema: 'rtbench.releases-result', ...view }, null, 1)}\n`;
}
