/**
 * Where a server's request path may pay beyond the loop's `fetch` +
 * `text()`: the page's body as bytes, which a server writes and the loop
 * never makes. Per call of the plain page (call.ts's calls back to back):
 * `text`, as the loop reads it; `bytes`, the body read as an ArrayBuffer
 * (the runtime encodes the string to UTF-8, as its server must); `encode`,
 * the same page's string encoded alone. When `bytes` less `text` on a
 * runtime is about its request path's steady figure less its loop's, that
 * difference is the body's encoding, the runtime's server's own work.
 *
 *   npx pnpm bench scripts/request-loop/body.ts --runtime node,deno,bun,workerd
 */
import { bench, suite } from '@rtbench/core';
import plain from './plain.js';
import { CALLS_PER_OPERATION } from './call.ts';

const times = CALLS_PER_OPERATION.plain;
const request = (): Request => new Request('http://localhost/');

export default suite('request-body', () => {
  bench('text', async () => {
    let length = 0;
    for (let i = 0; i < times; i++) length = (await (await plain.fetch(request())).text()).length;
    return length;
  });
  bench('bytes', async () => {
    let length = 0;
    for (let i = 0; i < times; i++) length = (await (await plain.fetch(request())).arrayBuffer()).byteLength;
    return length;
  });
  let page = '';
  bench('encode', async () => {
    if (!page) page = await (await plain.fetch(request())).text();
    let length = 0;
    for (let i = 0; i < times; i++) length = new TextEncoder().encode(page).byteLength;
    return length;
  });
});
