/**
 * A saved run is read and worded by its measurer's record from
 * measurer-records' list, which loads no measuring code: that list must be
 * the records the measurers' descriptors hold, kind for kind, or a run would
 * load and re-report as something other than what measured it.
 */
import { describe, expect, it } from 'vitest';
import { MEASURER_RECORDS } from '@rtbench/measurer-records';
import { MEASURERS } from '../src/index.ts';

describe("the saved-run loader's records", () => {
  it('are those the descriptors hold, kind for kind, in their order', () => {
    const refusal = (registry: typeof MEASURER_RECORDS): unknown => {
      try {
        return registry.recorded('nobody' as never);
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refusal(MEASURER_RECORDS)).toBe(refusal(MEASURERS.records));
    for (const { record } of MEASURERS.every()) {
      const saved = MEASURER_RECORDS.recorded(record.kind);
      const { fields: _fields, ...own } = record;
      expect({ ...saved, fields: undefined }).toEqual({ ...own, fields: undefined });
      expect(saved.describe).toBe(record.describe);
    }
  });
});
