/**
 * gc-pressure: allocation-bound workloads whose speed depends on the size of
 * the young generation. Run it under --max-semi-space-size / --min-semi-space-size
 * variants; see README.md for the claim, the commands and how to read GC counts.
 */
import { bench, group, suite } from '@rtbench/core';
import { bufferStream, LIVE, REQUEST_RECORDS, requestScoped, retainedSet, shortLivedArrays, smallObjects, stringsBuiltAndDropped } from './workloads.ts';

export default suite('gc-pressure', () => {
  group('short-lived', () => {
    bench('small objects (10k x 4 fields)', function* () {
      yield smallObjects();
    });
    bench('arrays (2k x 16 numbers, push)', function* () {
      yield shortLivedArrays();
    });
    bench('strings (2k built and dropped)', function* () {
      yield stringsBuiltAndDropped();
    });
    bench('2 KB Buffers, streaming loop (64 chunks, 2 copies each)', function* () {
      yield bufferStream();
    });
  });

  group('retained', () => {
    bench('small objects (10k) with a retained set', function* (ctx) {
      yield retainedSet(ctx.get<number>('live'));
    }).args('live', LIVE);
    bench('request-scoped records, all kept until the response', function* (ctx) {
      yield requestScoped(ctx.get<number>('records'));
    }).args('records', REQUEST_RECORDS);
  });
});
export { claims } from './claims.ts';
