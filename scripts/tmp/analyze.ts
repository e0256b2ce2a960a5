import { readFileSync } from 'node:fs';
import { turnLogRatio, median } from '../../packages/stats/src/index.ts';
const run = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const base = run.variants[0].id;
let wall = 0, sets = 0;
for (const c of run.cases) {
  const rs = run.results.filter((r: any) => r.caseId === c.id);
  const b = rs.find((r: any) => r.variantId === base);
  const line: string[] = [];
  for (const r of rs) {
    if (r === b) { line.push(`${r.variantId} turns=${r.rounds.map((x: any) => x.samples.length).join(',')}`); continue; }
    const lr = r.rounds.map((x: any) => { const y = b.rounds.find((z: any) => z.round === x.round); return y ? Math.exp(turnLogRatio(y.samples, x.samples)) : NaN; });
    const ratioOfMedians = r.rounds.map((x: any) => { const y = b.rounds.find((z: any) => z.round === x.round); return y ? median(x.samples) / median(y.samples) : NaN; });
    const spread = (a: number[]) => { const m = median(a); return `${m.toFixed(3)} [${Math.min(...a).toFixed(3)}-${Math.max(...a).toFixed(3)}] ±${(100 * Math.max(Math.max(...a) / m - 1, 1 - Math.min(...a) / m)).toFixed(1)}%`; };
    line.push(`${r.variantId}: turn ${spread(lr)} | medians ${spread(ratioOfMedians)}`);
  }
  console.log(c.id, '\n   ' + line.join('\n   '));
  for (const r of rs) for (const x of r.rounds) if (r === b) { wall += x.wallMs; sets++; }
}
console.log('sets', sets, 'mean set wall', (wall / sets).toFixed(0), 'ms', 'elapsed', (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000);
