/**
 * ssr: server-side rendering of a product-listing page, the work the
 * comparison of Workers and Node.js measured. See README.md for the claims.
 */
import { bench, group, suite } from '@rtbench/core';
import { createElement, useState as useReactState } from 'react';
import { renderToReadableStream, renderToString } from 'react-dom/server';
import { h as preactH } from 'preact';
import { useState as usePreactState } from 'preact/hooks';
import { render as preactRender } from 'preact-render-to-string';
import { listing } from './data.ts';
import { page, type Ui } from './page.ts';
import { decode, flightServer, flightToHtml, readText, serialize, streamOf, treeSummary } from './flight.ts';

export { claims } from './claims.ts';

/** Products on the page: about 1,000 elements and 100 KB of HTML. */
const PRODUCTS = 48;
const data = listing(PRODUCTS);

const react: Ui = {
  h: (type, props, ...children) => createElement(type as string, props, ...(children as [])),
  useState: (initial) => useReactState(initial),
};
const preact: Ui = {
  h: (type, props, ...children) => preactH(type as string, props, ...(children as [])),
  useState: (initial) => usePreactState(initial),
};

const decoder = new TextDecoder();

/** A stream of bytes read to its end, as one string: what a response body is. */
async function readToEnd(stream: ReadableStream<Uint8Array>): Promise<string> {
  let html = '';
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) html += decoder.decode(next.value, { stream: true });
  return html + decoder.decode();
}

export default suite('ssr', () => {
  group('react', () => {
    bench('renderToString', () => renderToString(page(react, data) as Parameters<typeof renderToString>[0]));

    bench('renderToReadableStream, read to the end', function* (ctx) {
      // React 18's node build has no web-stream renderer (an arm may pin react@18).
      if (typeof renderToReadableStream !== 'function') ctx.unsupported("this react-dom/server build has no renderToReadableStream (React 18's node build)");
      yield async () => {
        const stream = await renderToReadableStream(page(react, data) as Parameters<typeof renderToString>[0]);
        // Every byte rendered before it counts: the shell and everything after it.
        await stream.allReady;
        return readToEnd(stream);
      };
    });
  });

  // React Server Components as a framework renders them (flight.ts): the Flight stream written, decoded, and rendered to HTML.
  group('flight', () => {
    bench('serialize', async function* (ctx) {
      // rtbench writes NODE_ENV into the bundle (README.md, NODE_ENV): this reads the value React was given.
      if (process.env.NODE_ENV !== 'production') ctx.unsupported("React's development build writes timings into the Flight payload: it differs call to call, so the same work cannot be proven");
      const server = await flightServer();
      yield async () => readText(streamOf(await serialize(server)));
    });

    bench('deserialize', async function* () {
      const payload = await serialize(await flightServer());
      yield async () => treeSummary(await decode(streamOf(payload)));
    });

    bench('Flight -> HTML', async function* () {
      const server = await flightServer();
      yield () => flightToHtml(server);
    });
  });

  group('preact', () => {
    bench('renderToString', () => preactRender(page(preact, data) as Parameters<typeof preactRender>[0]));
  });
});
