/**
 * request-relay: the CPU a Workers-style relay spends per request on reading
 * the body and writing the upstream body. One iteration = one request; see
 * README.md for µs per request and the share of a 10 ms CPU budget.
 *
 * Each case cycles through REQUESTS different pre-encoded requests (setup),
 * so no two consecutive iterations parse the same bytes. Readers return the
 * record, writers the JSON text: equal digests across cases prove that the
 * JSON and binary paths carry the same fields and emit the same body.
 */
import { bench, group, suite } from '@rtbench/core';
import { readBody, encodeBody, fieldsFromJson } from '../shared/relay/body.ts';
import { makeFields, REQUESTS, type RelayFields } from '../shared/relay/fields.ts';
import { encodeFrame, readFrame } from '../shared/relay/frame.ts';
import { templateUnchecked, upstreamStringify, upstreamTemplate } from '../shared/relay/upstream.ts';

const all = (): RelayFields[] => Array.from({ length: REQUESTS }, (_, i) => makeFields(1000 + i));

/** A function that returns the next of `items` on each call, starting with the first. */
function cycle<T>(items: T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length]!;
}

export default suite('request-relay', () => {
  group('read body', () => {
    bench('JSON: TextDecoder + JSON.parse + field checks', function* () {
      const next = cycle(all().map(encodeBody));
      yield () => readBody(next());
    });

    // What `await request.json()` does in a Worker: a body stream read to the
    // end, decoded and parsed (async, but all CPU: nothing waits on I/O).
    bench('JSON: await new Response(bytes).json() + field checks', function* () {
      const next = cycle(all().map(encodeBody));
      yield async () => fieldsFromJson(await new Response(next()).json());
    });

    bench('binary frame: DataView + one TextDecoder', function* () {
      const next = cycle(all().map(encodeFrame));
      yield () => readFrame(next());
    });
  });

  group('write upstream body', () => {
    bench('JSON.stringify(object)', function* () {
      const next = cycle(all());
      yield () => upstreamStringify(next());
    });

    bench('template of validated safe fields', function* () {
      const next = cycle(all());
      yield () => upstreamTemplate(next());
    });

    // The same template when the fields were validated where they entered:
    // the difference to the case above is the cost of the regex checks.
    bench('template, fields validated earlier', function* () {
      const next = cycle(all());
      yield () => templateUnchecked(next());
    });
  });

  group('relay (read + write)', () => {
    bench('JSON body in, JSON.stringify out', function* () {
      const next = cycle(all().map(encodeBody));
      yield () => upstreamStringify(readBody(next()));
    });

    bench('binary frame in, template out', function* () {
      const next = cycle(all().map(encodeFrame));
      yield () => upstreamTemplate(readFrame(next()));
    });
  });
});
export { claims } from './claims.ts';
