/**
 * Packages a suite installed for an arm as one set (a framework and its
 * adapter: PinnedPackage `set`) are recorded and printed as pinned packages
 * are, beside the engine, on every arm that has them; a saved run from before
 * the field loads and prints as it did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type PinnedPackage } from '@rtbench/core/schema';
import { benchView, reporterFor } from '../src/index.ts';
import { versionText } from '../src/views/index.ts';

const file = join(import.meta.dirname, '..', '..', '..', 'results', '20261121-124315Z-json-reviver.json');
const saved = (): ReturnType<typeof parseRun> => parseRun(JSON.parse(readFileSync(file, 'utf8')), file);

const setOf = (next: string): PinnedPackage[] => [
  { name: 'next', version: next, dir: `/cache/next-page@${next}/node_modules/next`, sha256: 'e'.repeat(64), integrity: `sha512-next${next.replaceAll('.', '')}abcdef`, set: 'next-page' },
  { name: 'wrangler', version: '4.164.0', dir: `/cache/next-page@${next}/node_modules/wrangler`, sha256: 'e'.repeat(64), integrity: 'sha512-wranglerAbcdefgh', set: 'next-page' },
];

describe("an arm's installed set", () => {
  it('is printed beside the engine on each arm, each package with its version and integrity', () => {
    const run = saved();
    run.variants[0]!.packages = setOf('16.4.6');
    run.variants[1]!.packages = setOf('15.5.29');
    // Read back as a saved run is.
    const reread = parseRun(JSON.parse(JSON.stringify(run)), 'reread.json');
    expect(reread.variants[1]!.packages?.[0]?.set).toBe('next-page');
    expect(versionText(reread.variants[1]!)).toMatch(/; next 15\.5\.29 \(sha512-next15529abc…\), wrangler 4\.164\.0 \(sha512-wranglerAbcd…\)$/);
    const out = reporterFor('terminal')!.render(benchView(reread), { color: false, columns: 200 });
    expect(out).toContain('next 16.4.6 (sha512-next1646abcd…)');
    expect(out).toContain('next 15.5.29 (sha512-next15529abc…)');
  });

  it('is absent from a run saved before it, which loads and prints no packages', () => {
    const run = saved();
    expect(run.variants.every((v) => v.packages === undefined)).toBe(true);
    expect(versionText(run.variants[0]!)).not.toContain(';');
  });
});
