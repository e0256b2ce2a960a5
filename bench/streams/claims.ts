/** What streams shows, as claims `rtbench claims streams` checks (README.md, "The claims"). */
import { claim, faster, slower } from '@rtbench/core';

const FROM = 'adapter / ReadableStream.from(chunks)';
const CONCAT = 'adapter / Readable.toWeb(Readable.from(Buffer.concat(chunks)))';
const VALUE = 'source / value stream (hwm 1), default reader';
const BYTES = 'source / byte stream (hwm 4096), default reader';

export const claims = [
  claim('At 64 KB chunks, ReadableStream.from(chunks) is at least 2× faster than Readable.toWeb(Readable.from(Buffer.concat(chunks))) on deno and bun', {
    case: FROM,
    than: CONCAT,
    where: { chunk: 65536 },
    on: ['deno', 'bun'],
    is: faster(2),
  }),
  claim('At 64 B chunks it is the other way round: the concat adapter is at least 3× faster, one copy replacing 4,096 chunk reads', {
    case: CONCAT,
    than: FROM,
    where: { chunk: 64 },
    on: ['node', 'workerd'],
    is: faster(3),
  }),
  claim('A byte stream (highWaterMark 4096) read with a default reader is at least 1.5× slower than a value stream at 64 B chunks', {
    case: BYTES,
    than: VALUE,
    where: { chunk: 64 },
    on: ['node', 'deno', 'bun'],
    is: slower(1.5),
  }),
  claim("workerd's JavaScript-sourced value stream is at least 5× slower than node's at 64 B chunks", {
    case: VALUE,
    where: { chunk: 64 },
    on: ['workerd'],
    than: { variant: 'node' },
    is: slower(5),
  }),
];
