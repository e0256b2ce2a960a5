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
import type { RunView } from '../views/types.ts';
import { byKind, type Reporter } from './reporter.ts';
import { releasesPage } from './releases.ts';

const runPage = (view: RunView): string => htmlDocument(pageData(view), pageAssets());

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
  }),
};
