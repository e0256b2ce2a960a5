// Both sides of scripts/measure/requests/request-loop.ts in one Worker, so one rtbench run
// serves them in turn, round by round, and the host reads each as it reads
// any request: the same clock, the same steady rule, fresh processes.
// `GET /?page=plain` answers that page's own response (the request path).
// `GET /?page=plain&calls=8` calls that page's fetch and reads its body to
// the end 8 times back to back (the in-process loop), then answers the last
// body's length. `&body=ready` makes the page once per process and then
// uses that text: alone, it is answered as the page's response (what a
// server pays to send the body); with `calls`, it is read by `text()` (what
// the loop pays to read it). `&read=bytes` reads each call's body with
// `arrayBuffer()` instead: the bytes a server must make of the text, which
// deno's and bun's `text()` never makes (it hands back the string).
import plain from './plain.js';
import react from './react.js';

const PAGES = { plain, react };
const HEADERS = { 'content-type': 'text/html; charset=utf-8' };
const ready = new Map();

async function pageText(page, origin) {
  return (await (await page.fetch(new Request(`${origin}/`))).text());
}

async function pageBytes(page, origin) {
  return (await (await page.fetch(new Request(`${origin}/`))).arrayBuffer()).byteLength;
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    const name = url.searchParams.get('page');
    const page = PAGES[name];
    const looped = url.searchParams.has('calls');
    const calls = looped ? Number(url.searchParams.get('calls')) : 0;
    const readyBody = url.searchParams.get('body') === 'ready';
    const read = url.searchParams.get('read');
    if (!page || !Number.isSafeInteger(calls) || (looped && calls < 1) || (read !== null && (read !== 'bytes' || !looped || readyBody))) return new Response('page=plain|react[&calls=n (n >= 1)[&read=bytes]][&body=ready]', { status: 400 });
    if (readyBody) {
      if (!ready.has(name)) ready.set(name, await pageText(page, url.origin));
      const text = ready.get(name);
      if (!looped) return new Response(text, { headers: HEADERS });
      let length = 0;
      for (let i = 0; i < calls; i++) length = (await new Response(text, { headers: HEADERS }).text()).length;
      return new Response(String(length));
    }
    if (!looped) return page.fetch(request);
    let length = 0;
    for (let i = 0; i < calls; i++) length = read ? await pageBytes(page, url.origin) : (await pageText(page, url.origin)).length;
    return new Response(String(length));
  },
};
