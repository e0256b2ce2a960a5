/** What buffer-concat shows, as claims `rtbench claims buffer-concat` checks (README.md, "The claim"). */
import { claim, faster, within } from '@rtbench/core';

export const claims = [
  claim('Summing the chunk lengths is at least 20× faster than reading Buffer.concat(chunks).length, on every runtime', {
    case: 'length / sum of chunk lengths',
    than: 'length / Buffer.concat(chunks).length',
    where: { chunks: 500 },
    is: faster(20),
  }),
  claim('Passing totalLength to Buffer.concat changes its time by less than ±10% (50 chunks)', {
    case: 'join / Buffer.concat(chunks, totalLength)',
    than: 'join / Buffer.concat(chunks)',
    where: { chunks: 50 },
    is: within('10%'),
  }),
  claim("Bun's Buffer.concat is at least 1.2× faster than node's (50 chunks)", {
    case: 'join / Buffer.concat(chunks)',
    where: { chunks: 50 },
    on: ['bun'],
    than: { variant: 'node' },
    is: faster('20%'),
  }),
];
