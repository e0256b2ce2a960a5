/** What http-hello shows, as a claim `rtbench claims http-hello` checks (README.md, "The claim"). */
import { claim, faster } from '@rtbench/core';

export const claims = [
  claim("Bun serves a hello-world server's requests at least 1.3× faster than node (requests/s)", {
    case: 'hello world [load=c10, metric=req/s]',
    on: ['bun'],
    than: { variant: 'node' },
    is: faster(1.3),
  }),
];
