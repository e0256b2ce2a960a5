/**
 * The release matrix's page script (bundled with Observable Plot by
 * html/bundle.ts): first the summary (each runtime's last step, every change
 * point with the commands that reproduce it), then per track a chart of each
 * case's time across the releases, relative to the first release on a log
 * scale, each step's interval as a bar at its newer release, change points as
 * triangles labelled with the engine change, the newest release shaded. A
 * case can be picked to draw it alone; claims × releases where claims runs
 * were given. Every text from the runs goes in as text (dom.ts); each mark
 * carries a class (rt-releases-…) so the browser test can count it.
 */
import * as Plot from '@observablehq/plot';
import type { ReleasesPageData } from '../releases-data.ts';

type ReleasesPageTrack = ReleasesPageData['tracks'][number];
import { el, replace } from './dom.ts';

const data = JSON.parse(document.getElementById('rtbench-data')!.textContent!) as ReleasesPageData;

const COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const CHANGE_COLOURS = { slower: '#d73027', faster: '#1a9850' } as const;
const FONT = 'system-ui, -apple-system, "Segoe UI", sans-serif';
const ALL = '';

function chartWidth(): number {
  const main = document.querySelector('main');
  return Math.max(480, Math.min(1100, (main?.clientWidth ?? 1100) - 2));
}

function trackChart(track: ReleasesPageTrack, picked: string): SVGSVGElement | HTMLElement {
  const cases = track.cases.filter((c) => picked === ALL || c.caseId === picked);
  const colour = (caseId: string): string => COLOURS[Math.max(0, track.cases.findIndex((c) => c.caseId === caseId)) % COLOURS.length]!;
  const points = cases.flatMap((c) => c.points.map((p) => ({ ...p, caseId: c.caseId })));
  const withCi = points.filter((p) => p.lo !== undefined && p.hi !== undefined);
  const changes = points.filter((p) => p.change);
  // One engine label per step, above its highest change point: the cases that changed at one release share it.
  const labelled = new Map<number, (typeof changes)[number]>();
  for (const p of changes) if ((labelled.get(p.at)?.relative ?? -Infinity) < p.relative) labelled.set(p.at, p);
  const newest = track.releases.length - 1;
  const label = (i: number): string => {
    const r = track.releases[i];
    return r ? r.tag : '';
  };
  return Plot.plot({
    width: chartWidth(),
    height: 300,
    marginLeft: 60,
    marginBottom: 50,
    marginRight: 20,
    style: { fontFamily: FONT, fontSize: '11px' },
    x: { label: 'release', domain: [-0.5, newest + 0.5], ticks: track.releases.map((_, i) => i), tickFormat: label, tickRotate: track.releases.length > 8 ? -25 : 0 },
    y: { type: 'log', label: 'time relative to the first release', grid: true, tickFormat: (v: number) => `${+v.toPrecision(2)}×` },
    color: { domain: cases.map((c) => c.caseId), range: cases.map((c) => colour(c.caseId)) },
    marks: [
      Plot.rectX([newest], { x1: (i: number) => i - 0.5, x2: (i: number) => i + 0.5, fill: '#fde68a', fillOpacity: 0.45, className: 'rt-releases-newest' }),
      Plot.ruleY([1], { stroke: '#9ca3af' }),
      Plot.ruleX(withCi, { x: 'at', y1: 'lo', y2: 'hi', stroke: 'caseId', strokeOpacity: 0.5, strokeWidth: 3, className: 'rt-releases-ci' }),
      Plot.line(points, { x: 'at', y: 'relative', z: 'caseId', stroke: 'caseId', strokeWidth: 1.5, className: 'rt-releases-line' }),
      Plot.dot(points, { x: 'at', y: 'relative', fill: 'caseId', r: 2.5, className: 'rt-releases-point', title: (p: (typeof points)[number]) => `${p.caseId}\n${p.text}` }),
      Plot.dot(changes, {
        x: 'at',
        y: 'relative',
        symbol: 'triangle',
        rotate: (p: (typeof changes)[number]) => (p.change!.kind === 'slower' ? 0 : 180),
        r: 8,
        fill: 'none',
        stroke: (p: (typeof changes)[number]) => CHANGE_COLOURS[p.change!.kind],
        strokeWidth: 2,
        className: 'rt-releases-change',
        title: (p: (typeof changes)[number]) => `${p.caseId}\n${p.change!.text}\n${p.change!.engines}`,
      }),
      Plot.text([...labelled.values()], { x: 'at', y: 'relative', text: (p: (typeof changes)[number]) => p.change!.engines, dy: -14, fontSize: 10, fill: '#374151', className: 'rt-releases-engine' }),
    ],
  });
}

/** Claims × the releases checked: a row per check, a cell per release with the claim's word ("—": not checked there). */
function claimsGrid(claims: NonNullable<ReleasesPageTrack['claims']>): HTMLElement {
  const head = el('tr', {}, el('th', {}, 'claim'), ...claims.releases.map((r) => el('th', {}, r.tag, r.engine ? el('br') : null, r.engine ? el('small', {}, r.engine) : null)));
  const rows = claims.rows.map((r) =>
    el('tr', {}, el('td', {}, r.says, el('br'), el('small', {}, r.row)), ...r.cells.map((c) => (c ? el('td', { class: `claim-word ${c.word}`, title: c.text }, c.word) : el('td', { class: 'claim-word none' }, '—')))),
  );
  return el(
    'div',
    { class: 'claims' },
    el('h4', {}, `Claims × releases (${claims.rows.length} checked on ${claims.releases.length} releases)`),
    el('table', { class: 'rt-releases-claims' }, el('thead', {}, head), el('tbody', {}, ...rows)),
    ...claims.flips.map((f) => el('p', { class: 'claim-flip' }, `flipped: ${f}`)),
  );
}

function trackSection(track: ReleasesPageTrack): HTMLElement {
  const host = el('div', { class: 'chart' });
  const pick = el('select', { 'data-track': track.key, 'aria-label': `case to draw for ${track.key}` }, el('option', { value: ALL }, `all ${track.cases.length} cases`), ...track.cases.map((c) => el('option', { value: c.caseId }, c.caseId)));
  const draw = (): void => replace(host, trackChart(track, pick.value));
  pick.addEventListener('change', draw);
  draws.push(draw);
  return el(
    'section',
    { class: 'track', 'data-track': track.key },
    el('h3', {}, `${track.key}: ${track.range}`),
    el('p', { class: 'hint' }, `${track.releases.map((r) => (r.engine ? `${r.tag} (${r.engine})` : r.tag)).join(', ')}; ${track.progress}`),
    el('div', { class: 'filter-row' }, el('span', { class: 'filter-title' }, 'Case'), pick),
    host,
    track.claims ? claimsGrid(track.claims) : null,
  );
}

const draws: (() => void)[] = [];

function page(): HTMLElement {
  return el(
    'main',
    {},
    el('header', {}, el('h1', {}, data.title), el('p', { class: 'subtitle' }, data.subtitle)),
    el('h2', {}, 'Last step of each runtime'),
    el('ul', { class: 'summary', id: 'last-steps' }, ...data.tracks.map((t) => el('li', {}, t.lastStep))),
    el('h2', {}, `Change points (${data.changes.length})`),
    data.changes.length
      ? el('ul', { class: 'changes', id: 'change-list' }, ...data.changes.map((c) => el('li', { class: `change ${c.kind}` }, `${c.track} / ${c.caseId}: ${c.text}`, el('div', { class: 'commands' }, c.commands.join('\n')))))
      : el('p', { class: 'hint', id: 'change-list' }, 'none'),
    ...(data.claimFlips
      ? [
          el('h2', {}, `Claims that changed between releases (${data.claimFlips.length})`),
          data.claimFlips.length
            ? el('ul', { class: 'changes', id: 'claim-flips' }, ...data.claimFlips.map((f) => el('li', { class: 'change' }, `${f.track}: ${f.text}`, el('div', { class: 'commands' }, f.commands.join('\n')))))
            : el('p', { class: 'hint', id: 'claim-flips' }, 'none'),
        ]
      : []),
    el('h2', {}, 'Releases'),
    ...data.tracks.map(trackSection),
    el('footer', {}, ...data.legend.map((l) => el('p', { class: 'method' }, l))),
  );
}

document.body.appendChild(page());
for (const draw of draws) draw();
// The browser test waits for this.
document.body.dataset.ready = 'true';
let resizeTimer: number | undefined;
window.addEventListener('resize', () => {
  window.clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => draws.forEach((d) => d()), 150);
});
