/**
 * The one HTML file: page data in an inert JSON block, the bundled script
 * and style inline. A run file is untrusted input for a page, so:
 * - the only run-derived text in the markup (the title) is HTML-escaped;
 * - the JSON block escapes <, >, & and the JS line separators, so no string
 *   in it can close the block or open a tag;
 * - a Content-Security-Policy allows no network at all and only the page's
 *   own script (by its hash), so even a markup slip could not run injected
 *   script or fetch anything.
 */
import { createHash } from 'node:crypto';
import type { PageAssets } from './bundle.ts';
import { bidiVisibleDeep, oneLine, printable } from '../text.ts';
import type { HistoryPageData } from './history-data.ts';
import type { PageData } from './page-data.ts';
import type { ReleasesPageData } from './releases-data.ts';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content or a quoted attribute value, its control characters shown as in a terminal (`␛`, `\x07`). */
export function escapeHtml(text: string): string {
  return printable(text).replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** JSON that is safe inside <script type="application/json">: parses to the same value, contains no '<', '>' or '&', and no DEL or C1 control (a page read in a terminal shows them as text too). */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029\x7f-\x9f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A script body that cannot end its <script> element early. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** The start of an rtbench page up to its <body>: its content security policy, title and style. */
export function documentHead(csp: string, title: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="rtbench">
<title>${escapeHtml(oneLine(title))}</title>
<style>${style.replace(/<\//g, '<\\/')}</style>
</head>`;
}

export function htmlDocument(data: Pick<PageData, 'title'> | HistoryPageData | ReleasesPageData, assets: PageAssets): string {
  const script = inlineScript(assets.script);
  const scriptHash = createHash('sha256').update(script, 'utf8').digest('base64');
  const csp = [`default-src 'none'`, `script-src 'sha256-${scriptHash}'`, `style-src 'unsafe-inline'`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');
  return `${documentHead(csp, `rtbench — ${data.title}`, assets.style)}
<body>
<noscript>This report draws its tables and charts with JavaScript; the data is in the rtbench-data block of this file.</noscript>
<script type="application/json" id="rtbench-data">${jsonForScript(bidiVisibleDeep(data))}</script>
<script>${script}</script>
</body>
</html>
`;
}
