/** What cold-start shows, as a claim `rtbench claims cold-start` checks (README.md, "The claim"). */
import { claim, slower } from '@rtbench/core';

export const claims = [
  claim('A 5 MB bundle starts at least 1.5× slower than an empty program', {
    case: 'process start / generated [size=5mb, cache=none]',
    than: 'process start / empty [cache=none]',
    on: ['node', 'bun'],
    is: slower(1.5),
  }),
];
