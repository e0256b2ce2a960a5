/**
 * A suite's own defaults (SuiteOptions) reach the measurer as its options
 * (plan/suite-defaults.ts): the command line's value wins, a measurer
 * without the option is given nothing, a bad value names the suite.
 */
import { describe, expect, it } from 'vitest';
import { withSuiteDefaults } from '../src/plan/suite-defaults.ts';

const lockstep = { options: [{ name: 'sets-per-process', kind: 'value', value: 'n', help: '' }, { name: 'run-up', kind: 'value', value: 'duration', help: '' }] } as const;
const suite = { name: 's', options: { runUp: '150ms' } };

describe("a suite's own defaults", () => {
  it('give the measurer a run-up the command line did not', () => {
    expect(withSuiteDefaults({}, suite, lockstep)).toEqual({ 'run-up': '150ms' });
    expect(withSuiteDefaults({ 'sets-per-process': '2' }, suite, lockstep)).toEqual({ 'sets-per-process': '2', 'run-up': '150ms' });
  });

  it('yield to the command line, and to a measurer without the option', () => {
    expect(withSuiteDefaults({ 'run-up': '20ms' }, suite, lockstep)).toEqual({ 'run-up': '20ms' });
    expect(withSuiteDefaults({}, suite, { options: [] })).toEqual({});
    expect(withSuiteDefaults({}, { name: 's' }, lockstep)).toEqual({});
    expect(withSuiteDefaults({}, undefined, lockstep)).toEqual({});
  });

  it('refuse a value that is no duration in one line naming the suite', () => {
    expect(() => withSuiteDefaults({}, { name: 's', options: { runUp: '150' } }, lockstep)).toThrow(/^suite "s" asks a run-up of "150": write a duration with its unit/);
  });
});
