/** What gc-pressure shows, as claims `rtbench claims gc-pressure` checks (README.md, "The claim"). */
import { atMost, claim, faster, slower, within } from '@rtbench/core';

const RECORDS = 'retained / request-scoped records, all kept until the response';

export const claims = [
  claim("Capping node's young generation at 1 MB makes a request that keeps 25,000 records at least 2× slower", {
    case: RECORDS,
    where: { records: 25000 },
    on: ['node --max-semi-space-size=1'],
    than: { variant: 'node' },
    is: slower(2),
  }),
  claim("Capping workerd's young generation at 1 MB makes objects that live two iterations at least 1.5× slower", {
    case: 'retained / small objects (10k) with a retained set',
    where: { live: 20000 },
    on: ['workerd --max-semi-space-size=1'],
    than: { variant: 'workerd' },
    is: slower(1.5),
  }),
  claim("Raising node's cap to 64 MB makes a request that keeps 100,000 records (44 MB) at least 1.25× faster", {
    case: RECORDS,
    where: { records: 100000 },
    on: ['node --max-semi-space-size=64'],
    than: { variant: 'node' },
    is: faster(1.25),
  }),
  claim("Raising node's cap to 64 MB changes short-lived small-object garbage by less than ±15%", {
    case: 'short-lived / small objects (10k x 4 fields)',
    on: ['node --max-semi-space-size=64'],
    than: { variant: 'node' },
    is: within('15%'),
  }),
  // The memory half of the same flags: what the speed above is paid for, or saved, in peak resident memory.
  claim("Capping node's young generation at 1 MB cuts the peak memory of a request that keeps 25,000 records to at most 0.75× the default's", {
    case: RECORDS,
    where: { records: 25000 },
    on: ['node --max-semi-space-size=1'],
    than: { variant: 'node' },
    is: atMost(0.75),
    measure: 'peakRss',
  }),
  claim("Capping workerd's young generation at 1 MB saves objects that live two iterations no peak memory: at most 1.3× the default's", {
    case: 'retained / small objects (10k) with a retained set',
    where: { live: 20000 },
    on: ['workerd --max-semi-space-size=1'],
    than: { variant: 'workerd' },
    is: atMost(1.3),
    measure: 'peakRss',
  }),
  claim("Raising node's cap to 64 MB costs a request that keeps 100,000 records at most 1.5× the default's peak memory", {
    case: RECORDS,
    where: { records: 100000 },
    on: ['node --max-semi-space-size=64'],
    than: { variant: 'node' },
    is: atMost(1.5),
    measure: 'peakRss',
  }),
];
