/** What ssr shows, as claims `rtbench claims ssr` checks (README.md, "The claims"). */
import { claim, slower } from '@rtbench/core';

/** The runtimes the development-build claims are checked on, each against itself. */
const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

export const claims = RUNTIMES.flatMap((runtime) => [
  claim(`React's development build renders the page to a string at least 5× slower than its production build, on ${runtime}`, {
    case: 'react / renderToString',
    on: [`${runtime} NODE_ENV=development`],
    than: { variant: runtime },
    is: slower(5),
  }),
  claim(`React's development build streams the page at least 2× slower than its production build, on ${runtime}`, {
    case: 'react / renderToReadableStream, read to the end',
    on: [`${runtime} NODE_ENV=development`],
    than: { variant: runtime },
    is: slower(2),
  }),
]);
