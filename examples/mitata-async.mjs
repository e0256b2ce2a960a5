// Async work per iteration, written for mitata: promises, a Response body
// read back as JSON, and async generator setup. Shows .dense_range,
// lineplot and top-level `await run()`.
import { bench, group, lineplot, run } from 'mitata';

group('promises', () => {
  lineplot(() => {
    bench('await $depth chained thens', async function* (state) {
      const depth = state.get('depth');
      yield async () => {
        let p = Promise.resolve(0);
        for (let i = 0; i < depth; i++) p = p.then((v) => v + i);
        return await p;
      };
    }).dense_range('depth', 1, 9, 4);
  });

  bench('Promise.all of 16 resolved', async () => (await Promise.all(Array.from({ length: 16 }, (_, i) => Promise.resolve(i)))).length);
});

group('Response', () => {
  bench('new Response(text).json()', async function* () {
    // Async setup: awaited before timing starts.
    const text = await Promise.resolve(JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ id: i, ok: i % 2 === 0 })) }));
    yield async () => (await new Response(text).json()).items.length;
  });

  bench('new Response(bytes).arrayBuffer()', function* () {
    const bytes = new TextEncoder().encode('x'.repeat(4096));
    yield async () => (await new Response(bytes).arrayBuffer()).byteLength;
  });
});

await run();
