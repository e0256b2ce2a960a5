/** What buffer-concat shows, as claims `rtbench claims buffer-concat` checks (README.md, "The claim"). */
import { claim, faster, slower, within } from '@rtbench/core';

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
  claim('Buffer.concat copies every byte: joining 2,000 chunks costs at least 10× joining 50', {
    case: 'join / Buffer.concat(chunks) [chunks=2000]',
    than: 'join / Buffer.concat(chunks) [chunks=50]',
    is: slower(10),
  }),
];
