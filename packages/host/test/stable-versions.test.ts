import { describe, expect, it } from 'vitest';
import { stableVersionsInOrder } from '../src/stable-versions.ts';

describe("the registry's list of releases", () => {
  it('orders stable versions numerically and drops prereleases', () => {
    expect(stableVersionsInOrder(['1.0.0', '1.10.0', '1.9.0', '1.9.1', '2.0.0-rc.1', '2.0.0', '0.1.0', 'latest'])).toEqual(['0.1.0', '1.0.0', '1.9.0', '1.9.1', '1.10.0', '2.0.0']);
  });
});
