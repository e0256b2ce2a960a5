/**
 * Every plug-in and every measurer resolved for each platform rtbench knows,
 * the platform given as a value (no global patched), and the table in
 * docs/platforms.md checked against what the plug-ins declare.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformView, type PlatformView } from '@rtbench/arms';
import { MEASURERS } from '@rtbench/measurers';
import { HOST_TOOLS } from '@rtbench/host/tools';
import { PLATFORMS, type Platform } from '@rtbench/process';
import { runtimePlugins } from '@rtbench/runtime-registry';
import { parseProfileKinds } from '../src/args/profiles.ts';
import { repoRoot } from '../src/paths.ts';

const pinned = runtimePlugins().flatMap((p) => p.npmRuntimes);
const MACOS: readonly Platform[] = ['darwin-arm64', 'darwin-x64'];

describe('each platform, as the plug-ins, measurers and host tools declare it', () => {
  it('linux-x64 is what runs today: every pin, its own package', () => {
    const view = platformView('linux-x64', MEASURERS.every());
    expect(view.runtimes.map((r) => [r.spec, r.package])).toEqual(pinned.map((rt) => [rt.spec, `${rt.package}@${rt.version}`]));
    expect([...view.measurers, ...view.hostTools].every((m) => m.works)).toBe(true);
  });

  it.each(PLATFORMS)('%s: every pinned runtime has a package there or one line with the way out', (platform) => {
    const view = platformView(platform, MEASURERS.every());
    expect(view.runtimes.map((r) => r.spec)).toEqual(pinned.map((rt) => rt.spec));
    for (const row of view.runtimes) {
      if (row.package) expect(row.package).toMatch(/@\d/);
      else expect(row.unavailable).toMatch(new RegExp(`\\(this is ${platform}\\); use \\S+@system \\(on PATH\\) or \\S+=/path/to/\\S+$`));
    }
    expect(view.measurers.map((m) => m.name)).toEqual(MEASURERS.every().map((m) => m.name));
    expect(view.hostTools).toHaveLength(HOST_TOOLS.length);
  });

  it('on both arm64 platforms, every runtime published as a wrapper with platform packages has one there', () => {
    for (const platform of ['linux-arm64', 'darwin-arm64'] as const) {
      const wrapped = pinned.filter((rt) => { const e = rt.platforms['linux-x64']; return 'binaryPackage' in e && e.binaryPackage; });
      expect(wrapped.length).toBeGreaterThanOrEqual(3);
      for (const rt of wrapped) expect(platformView(platform, MEASURERS.every()).runtimes.find((r) => r.spec === rt.spec)?.binaryPackage).toMatch(/arm64|aarch64/);
    }
  });

  it('on macOS, what needs valgrind or perf is refused with its sentence; elsewhere it works', () => {
    const counted = MEASURERS.every().filter((m) => m.needs === 'valgrind');
    expect(counted.length).toBeGreaterThan(0);
    for (const platform of PLATFORMS) {
      const view = platformView(platform, MEASURERS.every());
      for (const m of counted) {
        const row = view.measurers.find((r) => r.name === m.name)!;
        expect(row.works).toBe(!MACOS.includes(platform));
        if (!row.works) expect(row.note).toMatch(/valgrind.*Linux only.*measure time instead/);
      }
    }
    expect(() => parseProfileKinds('native', {}, 'darwin-arm64')).toThrow('--profile native does not work on darwin-arm64: native profiles need Linux perf, which macOS does not have; use --profile cpu');
  });
});

/** "`pkg@1.0.0`", with "(binary from `@x/y`)", or "none: why". */
function cell(row: PlatformView['runtimes'][number]): string {
  if (!row.package) return `none: ${row.unavailable!.replace(/ \(this is [^)]*\); use .*$/, '')}`;
  return `\`${row.package}\`${row.binaryPackage ? ` (binary from \`${row.binaryPackage}\`)` : ''}`;
}

/** The platform table as the plug-ins declare it: a row per pinned runtime, a column per platform. */
function declaredTable(): string[] {
  const views = PLATFORMS.map((p) => platformView(p, MEASURERS.every()));
  return [
    `| spec | ${PLATFORMS.join(' | ')} |`,
    `|---|${PLATFORMS.map(() => '---').join('|')}|`,
    ...pinned.map((rt) => `| \`${rt.spec}\` | ${views.map((v) => cell(v.runtimes.find((r) => r.spec === rt.spec)!)).join(' | ')} |`),
  ];
}

describe('docs/platforms.md', () => {
  it('states the platform table the plug-ins declare', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'platforms.md'), 'utf8').split('\n');
    const start = doc.indexOf(declaredTable()[0]!);
    expect(start, `docs/platforms.md lacks the table; it should read:\n${declaredTable().join('\n')}`).toBeGreaterThanOrEqual(0);
    expect(doc.slice(start, start + declaredTable().length)).toEqual(declaredTable());
  });
});
