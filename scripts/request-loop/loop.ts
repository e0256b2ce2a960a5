/**
 * The in-process side of scripts/request-loop.ts: each page's handler
 * called in the runtime's own loop, its body read to the end (call.ts),
 * timed per call by rtbench's in-runtime loop (warmed until steady,
 * docs/warmup.md), each round a fresh process.
 * One operation is CALLS_PER_OPERATION calls back to back (call.ts).
 */
import { bench, suite } from '@rtbench/core';
import plain from './plain.js';
import react from './react.js';
import { CALLS_PER_OPERATION, callPage } from './call.ts';

export default suite('request-loop', () => {
  bench('plain', () => callPage(plain, CALLS_PER_OPERATION.plain));
  bench('react', () => callPage(react, CALLS_PER_OPERATION.react));
});
