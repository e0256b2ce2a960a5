/** A case without work at its edges (without-work.ts): exactly at the factor, and a process that gave no samples. */
import { describe, expect, it } from 'vitest';
import { nearFloor, WITHOUT_WORK_FACTOR } from '../src/index.ts';

describe('nearFloor at its edges', () => {
  it('flags a case exactly at the factor times the floor', () => {
    const floorNs = 4;
    const fastestNs = WITHOUT_WORK_FACTOR * floorNs;
    expect(nearFloor([{ samples: [fastestNs, fastestNs, fastestNs], floorNs }])).toEqual({ fastestNs, floorNs });
  });

  it('reads a process that gave no samples as no reading, its floor still counted: the others decide', () => {
    expect(nearFloor([{ samples: [], floorNs: 1 }, { samples: [1.1, 1.1, 1.1], floorNs: 2 }])).toEqual({ fastestNs: 1.1, floorNs: 1 });
  });
});
