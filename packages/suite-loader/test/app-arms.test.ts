/**
 * An app's library versions as arms (app-arms.ts), read from a planted app's
 * package.json and installed manifests: what an arm may pin, what moves with
 * a pin, and the one line refusing versions a package the app keeps does not
 * support, before anything installs.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { appInstalls, armPins, armPinsRefusal, pinWords } from '../src/apps/app-arms.ts';

let app: string;
const installed = (name: string, manifest: Record<string, unknown>): void => {
  mkdirSync(join(app, 'node_modules', name), { recursive: true });
  writeFileSync(join(app, 'node_modules', name, 'package.json'), JSON.stringify({ name, ...manifest }));
};

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'rtbench-app-arms-'));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      dependencies: { next: '15.5.0', react: '19.2.0', 'react-dom': '19.2.0', local: 'file:../local', shared: 'workspace:*' },
      devDependencies: { '@opennextjs/cloudflare': '^1.6.0', wrangler: '^4' },
    }),
  );
  installed('next', { version: '15.5.0', peerDependencies: { react: '^18.2.0 || ^19.0.0', 'react-dom': '^18.2.0 || ^19.0.0' } });
  installed('react', { version: '19.2.0' });
  installed('react-dom', { version: '19.2.0', peerDependencies: { react: '^19.2.0' } });
  installed('@opennextjs/cloudflare', { version: '1.6.5', peerDependencies: { next: '>=15.5.0 <16', wrangler: '^4.24.0' } });
  installed('wrangler', { version: '4.30.0' });
});

describe("an app's library versions as arms", () => {
  it('may pin a package the app declares from the registry, not one it links or takes from its workspace', () => {
    expect(appInstalls(app)).toEqual(['@opennextjs/cloudflare', 'next', 'react', 'react-dom', 'wrangler']);
  });

  it('move a declared package with a pin when it is at the pinned one\'s version and names it a peer, unless the arm pins it', () => {
    const installs = appInstalls(app);
    expect(armPins(app, installs, { react: '19.1.0' })).toEqual({ react: '19.1.0', 'react-dom': '19.1.0' });
    expect(armPins(app, installs, { react: '19.1.0', 'react-dom': '19.1.1' })).toEqual({ react: '19.1.0', 'react-dom': '19.1.1' });
    // next names react a peer but is not at react's version: it stays.
    expect(armPins(app, installs, { next: '15.5.2', sharp: '0.34.5' })).toEqual({ next: '15.5.2' });
    expect(armPins(app, installs, {})).toEqual({});
    expect(pinWords({ next: '15.5.2', react: '19.1.0' })).toBe('next 15.5.2, react 19.1.0');
  });

  it("refuse, in one line naming the package and its range, a version a package the app keeps does not support", () => {
    const installs = appInstalls(app);
    expect(armPinsRefusal(app, installs, { next: '15.4.6' })).toBe("the app's @opennextjs/cloudflare 1.6.5 supports next >=15.5.0 <16, not 15.4.6: pin a release of @opennextjs/cloudflare that does beside it (@opennextjs/cloudflare@<version>)");
    expect(armPinsRefusal(app, installs, { next: '16.0.0' })).toMatch(/supports next >=15\.5\.0 <16, not 16\.0\.0/);
    expect(armPinsRefusal(app, installs, { next: '15.5.2' })).toBeUndefined();
    // A package the arm pins too is not held to its installed range.
    expect(armPinsRefusal(app, installs, { next: '15.4.6', '@opennextjs/cloudflare': '1.3.0' })).toBeUndefined();
    // A follower moves with its pin, so its own range does not refuse it.
    expect(armPinsRefusal(app, installs, armPins(app, installs, { react: '19.1.0' }))).toBeUndefined();
    expect(armPinsRefusal(app, installs, { react: '19.1.0', 'react-dom': '19.2.0' })).toBeUndefined();
    expect(armPinsRefusal(app, installs, { react: '19.1.0' })).toMatch(/^the app's react-dom 19\.2\.0 supports react \^19\.2\.0, not 19\.1\.0/);
  });
});
