/**
 * The ssr suite on the four runtimes: each renderer's page is the same HTML
 * on node, deno, bun and workerd (the digest matches), React's development
 * build (NODE_ENV=development on a variant) renders the same HTML from its
 * own bundle, and a run whose variants leave NODE_ENV unset says in one line
 * that React was bundled as "production". Short runs, one warm process a
 * variant for all six cases (lockstep-shared): what is compared is each
 * variant's HTML, not a case's isolation. Each case in processes of its own,
 * the default, is test/suites.test.ts's run of ssr on node; that no case
 * reads what another left is test/lockstep.test.ts's. Only outcomes count.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { lockstepOf } from '../packages/measurer-records/src/index.ts';
import { runCliAsync, tempFile } from './helpers/cli.ts';

const VARIANTS = ['node', 'deno', 'bun', 'workerd', 'node NODE_ENV=development'];

describe('ssr on four runtimes', () => {
  it('renders the same HTML everywhere, production and development alike, and names the NODE_ENV it wrote in', async () => {
    const out = tempFile('ssr.json');
    const args = ['--rounds', '1', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--schedule', 'lockstep-shared'];
    const r = await runCliAsync(['bench', 'ssr', '--runtime', VARIANTS.join(','), ...args, '--save', out, '--quiet']);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const run: RunRecord = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.digestMismatches).toEqual([]);
    expect(run.cases.map((c) => c.id)).toEqual([
      'react / renderToString',
      'react / renderToReadableStream, read to the end',
      'flight / serialize',
      'flight / deserialize',
      'flight / Flight -> HTML',
      'preact / renderToString',
    ]);
    const devSerialize = run.results.find((x) => x.caseId === 'flight / serialize' && x.variantId === 'node NODE_ENV=development');
    expect(devSerialize?.status).toBe('unsupported');
    for (const c of run.cases) {
      const variants = c.id === 'flight / serialize' ? VARIANTS.filter((v) => !v.includes('NODE_ENV')) : VARIANTS;
      const digests = variants.map((variant) => {
        const result = run.results.find((x) => x.caseId === c.id && x.variantId === variant);
        expect(result?.status, `${c.id} on ${variant}: ${JSON.stringify(result?.failures)}`).toBe('ok');
        return result!.rounds.map((round) => round.digest.hash);
      });
      // One process per variant, five variants (four runtimes, two builds): one HTML (one payload, one decoded tree).
      // Each variant renders in a process of its own: a page that changed from one process to the next would differ here.
      expect(new Set(digests.flat()).size, c.id).toBe(1);
      // About 100 KB of HTML; the Flight page's payload and HTML about 350 and 290 KB.
      const summary = run.results.find((x) => x.caseId === c.id)!.rounds[0]!.digest.summary;
      if (c.id !== 'flight / deserialize') expect(Number(/^string\((\d+)\)$/.exec(summary ?? '')?.[1]), c.id).toBeGreaterThan(c.id.startsWith('flight') ? 250_000 : 90_000);
    }
    // One warm process a variant served all of its cases.
    for (const variant of VARIANTS) {
      const served = run.results.filter((x) => x.variantId === variant).flatMap((x) => x.rounds.map((round) => lockstepOf(round)!.process));
      expect(new Set(served).size, variant).toBe(1);
    }
    // node was bundled twice: production (the default, written in) and development (the variant's).
    const nodeBundles = run.suiteCode!.filter((c) => c.runtime === 'node');
    expect(nodeBundles.map((c) => c.variants)).toEqual([['node'], ['node NODE_ENV=development']]);
    expect(nodeBundles[0]!.sha256).not.toBe(nodeBundles[1]!.sha256);
    expect(r.stderr).toContain('! ssr: react, react-dom, react-server-dom-webpack read process.env.NODE_ENV, which node, deno, bun, workerd leave unset: bundled as "production"');
  });
});
