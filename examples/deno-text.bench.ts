// A file written for `deno bench`: run it with `deno bench examples/deno-text.bench.ts`,
// or with `rtbench run` on any runtime.
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = 'rtbench '.repeat(128);
const bytes = encoder.encode(text);

Deno.bench('encode', { group: 'text', baseline: true }, () => {
  return encoder.encode(text);
});

Deno.bench('decode', { group: 'text' }, () => {
  return decoder.decode(bytes);
});

Deno.bench({
  name: 'encodeInto',
  group: 'text',
  fn() {
    const target = new Uint8Array(bytes.length);
    return encoder.encodeInto(text, target).written;
  },
});

Deno.bench('sort 1000 numbers (manual timing)', (b) => {
  const values = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
  b.start();
  values.sort((x, y) => x - y);
  b.end();
  if (values[0] !== 0) throw new Error('not sorted');
});

Deno.bench('ignored', { ignore: true }, () => {
  throw new Error('ignored benchmarks do not run');
});
