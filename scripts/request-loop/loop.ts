/**
 * The in-process side of scripts/request-loop.ts: each page's `fetch`
 * called in the runtime's own loop, its body read to the end with
 * `text()`, timed per call by rtbench's in-runtime loop (warmed until
 * steady, docs/warmup.md), each round a fresh process.
 */
import { bench, suite } from '@rtbench/core';
import plain from './plain.js';
import react from './react.js';

const call = async (worker: { fetch(request: Request): Response | Promise<Response> }): Promise<string> => (await worker.fetch(new Request('http://localhost/'))).text();

export default suite('request-loop', () => {
  bench('plain', () => call(plain));
  bench('react', () => call(react));
});
