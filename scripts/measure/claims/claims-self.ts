/**
 * False positives of a claim that must never hold: "a variant is at least 5%
 * faster than itself" (test/fixtures/claims), an A/A check on each of the
 * four default runtimes, repeated. Prints how often each word came up.
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/claims/claims-self.ts [repetitions=20] [-- extra claims args]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const extra = dashes === -1 ? [] : argv.slice(dashes + 1);
const repetitions = Number(own[0] ?? 20);
const scratch = mkdtempSync(join(tmpdir(), 'rtbench-claims-self-'));
const words: Record<string, number> = { held: 0, broken: 0, undecided: 0 };
const before = machineSpeedText();
const started = performance.now();
for (let i = 0; i < repetitions; i++) {
  const r = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'claims', join(repoRoot, 'test/fixtures/claims/index.ts'), '--claim', 'than itself', '--format', 'json', '--quiet', '--save', join(scratch, String(i)), ...extra], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const view = JSON.parse(r.stdout) as { outcomes: { subject: { variantId: string }; word: string; ratio?: number }[] };
  for (const o of view.outcomes) words[o.word]!++;
  console.log(`${i + 1}/${repetitions}: ${view.outcomes.map((o) => `${o.subject.variantId} ${o.word} (${o.ratio?.toFixed(3)})`).join(', ')}`);
}
const minutes = (performance.now() - started) / 60_000;
console.log(`"at least 5% faster than itself" × 4 runtimes × ${repetitions}: ${words.held} held, ${words.broken} broken, ${words.undecided} undecided; ${minutes.toFixed(1)} min, before: ${before}; load after ${loadText()}`);
