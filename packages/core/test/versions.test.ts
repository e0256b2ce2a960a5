import { describe, expect, it } from 'vitest';
import { isStableVersion, stableVersionsInOrder } from '../src/versions.ts';

describe("the registry's list of releases", () => {
  it('orders stable versions numerically and drops prereleases', () => {
    expect(stableVersionsInOrder(['1.0.0', '1.10.0', '1.9.0', '1.9.1', '2.0.0-rc.1', '2.0.0', '0.1.0', 'latest'])).toEqual(['0.1.0', '1.0.0', '1.9.0', '1.9.1', '1.10.0', '2.0.0']);
  });

  it('a stable version is X.Y.Z written whole', () => {
    expect(['24.3.0', '1.20250101.0'].every(isStableVersion)).toBe(true);
    expect(['24', '24.3', '24.3.0-rc.1', 'v24.3.0', '24.3.0 ', '24.3.0+build'].some(isStableVersion)).toBe(false);
  });
});
