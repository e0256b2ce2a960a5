/** What ssr shows, as claims `rtbench claims ssr` checks (README.md, "The claims"). */
import { claim, slower } from '@rtbench/core';

/**
 * The runtimes the development-build claims are checked on, each against
 * itself, with the least factor the string render's interval has kept above
 * in every run: bun's ratio varies between runs and came near 5×
 * (docs/measurements/ssr.md).
 */
const RUNTIMES = [
  { runtime: 'node', stringFactor: 5 },
  { runtime: 'deno', stringFactor: 5 },
  { runtime: 'bun', stringFactor: 3 },
  { runtime: 'workerd', stringFactor: 5 },
];

export const claims = RUNTIMES.flatMap(({ runtime, stringFactor }) => [
  claim(`React's development build renders the page to a string at least ${stringFactor}× slower than its production build, on ${runtime}`, {
    case: 'react / renderToString',
    on: [`${runtime} NODE_ENV=development`],
    than: { variant: runtime },
    is: slower(stringFactor),
  }),
  claim(`React's development build streams the page at least 2× slower than its production build, on ${runtime}`, {
    case: 'react / renderToReadableStream, read to the end',
    on: [`${runtime} NODE_ENV=development`],
    than: { variant: runtime },
    is: slower(2),
  }),
]);
