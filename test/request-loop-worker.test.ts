// The in-process side of scripts/measure/requests/request-loop.ts: its Worker must make the
// page's work (and only its body's part with body=ready), or the script's
// ratios compare different work.
import { describe, expect, it } from 'vitest';
import inProcess from '../scripts/measure/requests/request-loop/in-process.js';
import plain from '../scripts/measure/requests/request-loop/plain.js';

const ask = (query: string): Promise<Response> => inProcess.fetch(new Request(`http://localhost/?${query}`));

describe('the in-process loop Worker', () => {
  it('answers the length of the page it read, after the calls asked', async () => {
    const page = await plain.fetch().text();
    const looped = await ask('page=plain&calls=3');
    expect(looped.status).toBe(200);
    expect(await looped.text()).toBe(String(page.length));
    expect(await (await ask('page=plain&body=ready&calls=2')).text()).toBe(String(page.length));
    // Read as bytes: the page's UTF-8 length.
    expect(await (await ask('page=plain&calls=2&read=bytes')).text()).toBe(String(new TextEncoder().encode(page).byteLength));
  });

  it('answers the page itself, and the ready page as the page: the same text and content type', async () => {
    const page = plain.fetch();
    const text = await page.text();
    for (const query of ['page=plain', 'page=plain&body=ready']) {
      const sent = await ask(query);
      expect(sent.headers.get('content-type'), query).toBe(page.headers.get('content-type'));
      expect(await sent.text(), query).toBe(text);
    }
  });

  it('refuses a page it does not know, a count of calls that is not a whole number, or a reading it has not', async () => {
    for (const query of ['page=other&calls=1', 'calls=1', 'page=plain&calls=-1', 'page=plain&calls=1.5', 'page=plain&calls=x', 'page=plain&calls=0', 'page=plain&calls=', 'page=plain&read=bytes', 'page=plain&calls=1&read=text', 'page=plain&body=ready&calls=1&read=bytes']) expect((await ask(query)).status, query).toBe(400);
  });
});
