/**
 * What relay-served shows, as claims `rtbench claims relay-served` checks
 * on CPU per request (README.md): the relay's tail stays under the free
 * plan's limit, and at the whole request the body's encoding hardly moves
 * the median, though reading the frame alone is several times cheaper.
 */
import { below, claim, within } from '@rtbench/core';

export const claims = [
  claim("The JSON relay's p99 over all threads stays below the free plan's 10 ms of CPU", { case: 'JSON body', where: { cpu: 'all threads' }, p99: below('10ms') }),
  claim("The binary-frame relay's p99 over all threads stays below the free plan's 10 ms of CPU", { case: 'binary frame', where: { cpu: 'all threads' }, p99: below('10ms') }),
  claim("At the whole request, the binary frame's p50 is within ±25% of the JSON body's: the body's read is a small part of the request's CPU", {
    case: 'binary frame',
    than: 'JSON body',
    where: { cpu: 'js thread' },
    quantile: 'p50',
    is: within('25%'),
  }),
];
