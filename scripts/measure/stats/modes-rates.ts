/**
 * False-alarm and detection rates of detectModes on seeded synthetic data:
 * the table in packages/stats/README.md ("Modes").
 *
 *   npx tsx scripts/measure/stats/modes-rates.ts [reps=1000]
 */
import { createRandom, detectModes } from '../../../packages/stats/src/index.ts';

const reps = Number(process.argv[2] ?? 1000);
const random = createRandom(2026);
const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const logT3 = (): number => normal() / Math.sqrt((normal() ** 2 + normal() ** 2 + normal() ** 2) / 3);
const cauchy = (): number => Math.max(-300, Math.min(300, normal() / normal()));
const two = (n: number, ratio: number, share: number, sigma: number, upperSigma = sigma): number[] =>
  Array.from({ length: n }, (_, i) => (i < Math.round(share * n) ? 100 * ratio * Math.exp(upperSigma * normal()) : 100 * Math.exp(sigma * normal())));

const data: [string, (n: number) => number[]][] = [
  ['log-normal (log-sd 5%)', (n) => Array.from({ length: n }, () => 100 * Math.exp(0.05 * normal()))],
  ['log values Student t, 3 df (scale 3%)', (n) => Array.from({ length: n }, () => 100 * Math.exp(0.03 * logT3()))],
  ['log values Cauchy, clipped (scale 2%)', (n) => Array.from({ length: n }, () => 100 * Math.exp(0.02 * cauchy()))],
  ['10% delayed by an exponential amount (log mean +0.3)', (n) => Array.from({ length: n }, () => 100 * Math.exp(0.02 * normal() + (random() < 0.1 ? -0.3 * Math.log(1 - random()) : 0)))],
  ['uniform 100–150', (n) => Array.from({ length: n }, () => 100 + 50 * random())],
  ['two clusters 1.5x apart, 20% in the smaller, log-sd 5%', (n) => two(n, 1.5, 0.2, 0.05)],
  ['30% at log-sd 3%, 70% 1.7x slower at log-sd 10%', (n) => two(n, 1.7, 0.7, 0.03, 0.1)],
  ['two clusters 1.5x apart, 20%, log-sd 10% (overlapping)', (n) => two(n, 1.5, 0.2, 0.1)],
];
const sizes = [10, 20, 30, 100];
console.log(`| data (share of ${reps} data sets reported as two modes) | ${sizes.map((n) => `n = ${n}`).join(' | ')} |`);
console.log(`|---|${sizes.map(() => '--:').join('|')}|`);
for (const [name, make] of data) {
  const rates = sizes.map((n) => {
    let alarms = 0;
    for (let r = 0; r < reps; r++) if (detectModes(make(n)).modes.length > 1) alarms++;
    return `${((alarms / reps) * 100).toFixed(1)}%`;
  });
  console.log(`| ${name} | ${rates.join(' | ')} |`);
}
