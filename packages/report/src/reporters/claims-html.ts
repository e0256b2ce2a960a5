/**
 * Claims as the HTML page's claims section: a table per suite and the
 * --across matrix, drawn as markup (no script: every run-derived text is
 * escaped, and the page's policy allows no script and no network).
 */
import type { ClaimsView } from '../views/claims-types.ts';
import { documentHead, escapeHtml as e } from '../html/document.ts';
import { bySuite, claimedText, claimFigure, claimFlipText, claimSides, countsLine, matrixRowText, runLine } from '../cells/claims.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}.held{color:#1a7f37}.broken{color:#cf222e;font-weight:600}.undecided{color:#9a6700}pre{background:#f6f8fa;padding:.5rem}small{color:#666}`;

/** The claims section: what a page shows of a claims view. */
function claimsSection(view: ClaimsView): string {
  const out: string[] = [`<section id="claims"><h2>Claims: ${e(countsLine(view))}</h2>`];
  for (const [suite, outcomes] of bySuite(view.outcomes)) {
    out.push(`<h3>${e(suite)}</h3><table><thead><tr><th>claim</th><th>checked on</th><th>claimed</th><th>measured</th><th>units</th><th>word</th></tr></thead><tbody>`);
    for (const o of outcomes) {
      out.push(
        `<tr><td>${e(o.says)}</td><td>${e(claimSides(o))}</td><td>${e(claimedText(o))}</td><td class="n">${e(claimFigure(o))}</td><td class="n">${o.units}</td><td class="${o.word}">${o.word}${o.note ? ` <small>${e(o.note)}</small>` : ''}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  if (view.matrix) {
    const m = view.matrix;
    out.push(`<h3>claims × releases</h3><table><thead><tr><th>claim</th>${m.columns.map((c) => `<th>${e(c.label)}${c.versionText ? `<br><small>${e(c.versionText)}</small>` : ''}</th>`).join('')}</tr></thead><tbody>`);
    for (const row of m.rows) {
      out.push(`<tr><td>${e(`${row.suite}: ${row.says}`)}<br><small>${e(matrixRowText(row.sides))}</small></td>${row.cells.map((o) => (o ? `<td class="${o.word}">${o.word}<br><small>${e(claimFigure(o))}</small></td>` : '<td>—</td>')).join('')}</tr>`);
    }
    out.push('</tbody></table>');
    for (const f of m.flips) out.push(`<p><b>Flipped</b>: ${e(claimFlipText(f))}.</p><pre>${e(f.bisect.join('\n'))}</pre>`);
  }
  out.push(`<p><small>${e(view.adjustment)}; ${e(view.method)}.</small></p><ul>`);
  for (const r of view.runs) out.push(`<li><small>${e(runLine(r))}</small></li>`);
  for (const n of view.notes) out.push(`<li>${e(n)}</li>`);
  out.push('</ul></section>');
  return out.join('\n');
}

export function renderClaimsHtml(view: ClaimsView): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`;
  return `${documentHead(csp, `rtbench — claims: ${countsLine(view)}`, STYLE)}
<body>
${claimsSection(view)}
</body>
</html>
`;
}
