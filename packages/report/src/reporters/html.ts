/**
 * One self-contained HTML file: sample distributions per case, relative
 * speeds or a forest plot of verdicts, runtime and case filters, and the
 * variants and environment. Opens offline (the chart library is bundled in).
 */
import { renderClaimsHtml } from './claims-html.ts';
import { historyPageAssets, pageAssets } from '../html/bundle.ts';
import { htmlDocument } from '../html/document.ts';
import { historyPageData } from '../html/history-data.ts';
import { pageData } from '../html/page-data.ts';
import type { BisectView, RunView } from '../views/types.ts';
import { byKind, type Reporter } from './reporter.ts';
import { releasesPage } from './releases.ts';
import { answerLines, bisectKey } from './bisect.ts';

const runPage = (view: RunView): string => htmlDocument(pageData(view), pageAssets());

/** A bisect's page: the releases it measured as a history's line chart, headed by its answer, under the bisect's key (its one level). */
function bisectPage(view: BisectView): string {
  const title = `bisect of ${view.runtime}: ${view.suite} / ${view.caseId}`;
  if (!view.series) return htmlDocument({ title }, historyPageAssets());
  return htmlDocument({ ...historyPageData(view.series), title, subtitle: answerLines(view)[0] ?? '', legend: bisectKey(view) }, historyPageAssets());
}

export const htmlReporter: Reporter = {
  format: 'html',
  description: 'one self-contained HTML page with charts (distributions, relative speeds, verdicts) and filters; opens offline',
  extension: 'html',
  escaping: 'page',
  drawsProfiles: true,
  render: byKind({
    bench: runPage,
    comparison: runPage,
    // A history is its own page: a line chart per case (html/page/history.ts).
    history: (view) => htmlDocument(historyPageData(view), historyPageAssets()),
    claims: renderClaimsHtml,
    // A release matrix is its own page too (html/page/releases.ts).
    releases: releasesPage,
    bisect: bisectPage,
  }),
};
