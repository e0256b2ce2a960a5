/** What ssr shows, as claims `rtbench claims ssr` checks (README.md, "The claims"). */
import { claim, faster, slower, within } from '@rtbench/core';

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

const developmentClaims = RUNTIMES.flatMap(({ runtime, stringFactor }) => [
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

/**
 * The Flight cases across runtimes: decoding the payload costs about the same
 * on every runtime (each interval within ±30% of node's in the default
 * table, docs/measurements/ssr.md).
 */
const flightClaims = ['deno', 'bun', 'workerd'].map((runtime) =>
  claim(`Decoding the Flight payload costs node's time within ±30% on ${runtime}`, {
    case: 'flight / deserialize',
    on: [runtime],
    than: { variant: 'node' },
    is: within('30%'),
  }),
);

/**
 * React 19.3's Flight client parses plain JSON and walks it instead of
 * passing a reviver to JSON.parse: its decode took 0.46× React 19.2.9's time
 * on node [0.42–0.51] and 0.45× on workerd [0.42–0.49] (docs/measurements/ssr.md);
 * the claims state 1.5×, under both intervals' bounds (1.97×, 2.04×).
 */
const versionClaims = ['node', 'workerd'].map((runtime) =>
  claim(`React 19.3's Flight client decodes the page at least 1.5× faster than React 19.2's, on ${runtime}`, {
    case: 'flight / deserialize',
    on: [`${runtime} react@19.3.1`],
    than: { variant: `${runtime} react@19.2.9` },
    is: faster(1.5),
  }),
);

export const claims = [...developmentClaims, ...flightClaims, ...versionClaims];
