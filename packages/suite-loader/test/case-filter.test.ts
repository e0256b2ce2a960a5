/** --filter's patterns: commas split them, except inside a /regex/ or a case's [parameters]. */
import { describe, expect, it } from 'vitest';
import { caseFilter } from '../src/case-filter.ts';

const IDS = ['hello world [load=c1, metric=req/s]', 'hello world [load=c10, metric=req/s]', 'hello world [load=c100-p10, metric=req/s]', 'relay [body=json]'];
const picked = (filter: string): string[] => IDS.filter(caseFilter(filter));

describe('caseFilter', () => {
  it('an empty piece (a trailing, leading or doubled comma) selects nothing of its own', () => {
    expect(picked('relay,')).toEqual([IDS[3]]);
    expect(picked(',relay')).toEqual([IDS[3]]);
    expect(picked('c10,, relay')).toEqual([IDS[1], IDS[2], IDS[3]]);
    expect(picked(',')).toEqual([]);
  });

  it('leaves out what a `!` pattern matches: a substring is also in a phrase that negates it', () => {
    const revivers = ['parse / no reviver [size=10kb]', 'parse / identity reviver (arrow) [size=10kb]', 'parse / date-reviving reviver [size=500kb]'];
    expect(revivers.filter(caseFilter('reviver'))).toEqual(revivers);
    expect(revivers.filter(caseFilter('reviver,!no reviver'))).toEqual(revivers.slice(1));
    expect(revivers.filter(caseFilter('!no reviver'))).toEqual(revivers.slice(1));
    expect(revivers.filter(caseFilter('reviver, ! /size=500kb,?/'))).toEqual(revivers.slice(0, 2));
    expect(picked('!/load=c(1|10),/')).toEqual(IDS.slice(2));
    expect(picked('!')).toEqual([]);
  });

  it('keeps a comma inside a /regex/ in the regex, and splits at the commas outside it', () => {
    // Cut at its comma, this would be "/load=c(1|10)" and "/", and "/" is in every req/s id.
    expect(picked('/load=c(1|10),/')).toEqual(IDS.slice(0, 2));
    expect(picked('/load=c(1|10),/,relay')).toEqual([...IDS.slice(0, 2), IDS[3]]);
    expect(picked('relay,/load=c1,/i')).toEqual([IDS[0], IDS[3]]);
  });

  it('splits substrings at every comma, and leaves a slash never closed to a substring', () => {
    expect(picked('c100-p10, relay')).toEqual(IDS.slice(2));
    expect(picked('c10,relay')).toEqual(IDS.slice(1));
    expect(picked('/s]')).toEqual(IDS.slice(0, 3));
  });

  it("keeps a comma inside a case's [parameters], so an id copied from the table selects that case alone", () => {
    // Cut at its comma, "metric=req/s]" would select every load.
    expect(picked('hello world [load=c1, metric=req/s]')).toEqual([IDS[0]]);
    expect(picked('relay,hello world [load=c10, metric=req/s]')).toEqual([IDS[1], IDS[3]]);
    expect(picked('[load=c100-p10, metric=req/s], relay')).toEqual(IDS.slice(2));
    // A bracket never closed stays split as before.
    expect(picked('[load=c1,relay')).toEqual(IDS);
  });
});
