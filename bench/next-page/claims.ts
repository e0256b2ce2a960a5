/**
 * What next-page shows, as claims `rtbench claims next-page` checks on CPU
 * per request (README.md, docs/measurements/next-page.md): OpenNext's
 * Worker spends more of the JavaScript thread than Next.js's own server on
 * node for the same 1 MB page, about the same over all threads; Next.js's
 * server on deno spends more of the JavaScript thread than on node and less
 * over all threads; and each server's tail stays within a bound read from
 * the default table with room.
 */
import { below, claim, faster, slower, within } from '@rtbench/core';

export const claims = [
  // Measured 1.35× [1.25–1.46] in the default table: stated at 1.15×, under the interval's lower bound.
  claim("OpenNext's Worker on workerd spends at least 1.15× the JavaScript-thread CPU per request of Next.js's own server on node", {
    case: 'app router page',
    where: { cpu: 'js thread' },
    on: ['workerd'],
    than: { variant: 'node' },
    is: slower(1.15),
  }),
  // Measured ≈ 1.00× [0.92–1.08]: node's helper threads (GC, compilers) make up what its JavaScript thread saves.
  claim("Over all threads, OpenNext's Worker on workerd costs Next.js's server on node's CPU per request within ±15%", {
    case: 'app router page',
    where: { cpu: 'all threads' },
    on: ['workerd'],
    than: { variant: 'node' },
    is: within('15%'),
  }),
  // p99 of the JavaScript thread measured 59.2 ms on node [56.8–61.0] and 87.3 ms on workerd [71.0–94.5].
  claim("Next.js's server on node keeps the JavaScript thread's p99 below 80 ms for the 1 MB page", { case: 'app router page', where: { cpu: 'js thread' }, on: ['node'], p99: below('80ms') }),
  claim("OpenNext's Worker on workerd keeps the JavaScript thread's p99 below 120 ms for the 1 MB page", { case: 'app router page', where: { cpu: 'js thread' }, on: ['workerd'], p99: below('120ms') }),
  // Measured 1.22× [1.18–1.26] in a node,deno table: stated at 1.1×, under the interval's lower bound.
  claim("Next.js's server on deno spends at least 1.1× the JavaScript-thread CPU per request of the same server on node", {
    case: 'app router page',
    where: { cpu: 'js thread' },
    on: ['deno'],
    than: { variant: 'node' },
    is: slower(1.1),
  }),
  // Measured 1.13× faster [1.09–1.18]: node's helper threads (GC, compilers) cost more per request than deno's.
  claim("Over all threads, Next.js's server on deno is at least 1.05× cheaper per request than on node", {
    case: 'app router page',
    where: { cpu: 'all threads' },
    on: ['deno'],
    than: { variant: 'node' },
    is: faster(1.05),
  }),
  // p99 of the JavaScript thread measured 65.6 ms on deno [62.7–69.5] (node 57.4 ms [55.9–60.5]) on a busy machine.
  claim("Next.js's server on deno keeps the JavaScript thread's p99 below 90 ms for the 1 MB page", { case: 'app router page', where: { cpu: 'js thread' }, on: ['deno'], p99: below('90ms') }),
];
