/** What trig shows, as claims `rtbench claims trig` checks (README.md, "The claim" and "The whole argument range"). */
import { claim, faster, slower } from '@rtbench/core';

export const claims = [
  claim("On the loop behind the 2025 finding (arguments of 3e7–3e8), node's sin·cos is at least 2× slower than workerd's", {
    case: 'loop form / sin(PI*i)*cos(PI*i)',
    where: { from: 99999000 },
    on: ['node'],
    than: { variant: 'workerd' },
    is: slower(2),
  }),
  claim("node's Math.sin costs at least 3× more per call at |x| ~ 1e8 than at |x| ~ 1 (the slow exact reduction)", {
    case: 'sweep / Math.sin [decade=1e8]',
    than: 'sweep / Math.sin [decade=1e0]',
    on: ['node'],
    is: slower(3),
  }),
  claim("On small arguments node's Math.sin is at least 1.5× faster than deno's", {
    case: '1000 calls / Math.sin',
    where: { range: 'pi' },
    on: ['node'],
    than: { variant: 'deno' },
    is: faster(1.5),
  }),
  claim('Math.pow is at least 2× faster on node@26 than on node@20', {
    case: '1000 calls / Math.pow',
    on: ['node@26'],
    than: { variant: 'node@20' },
    is: faster(2),
  }),
];
