/**
 * A Next.js page as compared across runtimes and builds (docs/requests.md:
 * same work). Next.js's server inlines the page's Flight payload (React's
 * Server Components stream) as it streams, one `self.__next_f.push` script
 * per chunk the server flushed, so where the chunks break follows the
 * runtime's streams (Next.js's server on node wrote one page's payload in
 * 69 scripts, OpenNext's Worker on workerd in one, the same text). The
 * text compared is the HTML without those scripts, then the payload's
 * pushes in order with their text chunks joined: another page, payload or
 * order still differs. Then the names a build gives are masked: its build
 * id (read from the payload's first row, masked wherever it appears), its
 * chunks', style sheets' and media files' names, the module ids of client
 * references and of the runtime's modules; how many chunks, and where,
 * still counts.
 */
import type { ResponseNormalizer } from '@rtbench/core';
import { pageNamesMasked } from '../app-pages.ts';

const PUSH = /<script>self\.__next_f\.push\((\[[\s\S]*?\])\)<\/script>/g;

/** A Next.js page with its inline Flight payload's pushes taken out of the HTML and put after it, consecutive text chunks joined. */
export const joinFlightChunks: ResponseNormalizer = ({ body }) => {
  const pushes: unknown[][] = [];
  const html = body.replace(PUSH, (whole, args: string) => {
    try {
      const parsed: unknown = JSON.parse(args);
      if (!Array.isArray(parsed)) return whole;
      pushes.push(parsed);
      return '';
    } catch {
      return whole;
    }
  });
  if (pushes.length === 0) return body;
  // Consecutive text chunks ([1, text]) joined; any other push kept as it was.
  const flight: string[] = [];
  let text = '';
  for (const push of pushes) {
    if (push[0] === 1 && typeof push[1] === 'string') text += push[1];
    else {
      if (text) flight.push(JSON.stringify([1, text]));
      text = '';
      flight.push(JSON.stringify(push));
    }
  }
  if (text) flight.push(JSON.stringify([1, text]));
  return `${html}\n<!-- the Flight payload's pushes, text chunks joined -->\n${flight.join('\n')}\n`;
};

/** A build's file names under _next/static, its runtime's module ids and a client reference's module id (a Flight `I[<id>,…]` row). */
const maskNames = pageNamesMasked([
  [/(static\/(?:chunks|css|media)\/)[\w~.\/-]*?(\.(?:js|mjs|css|woff2?|ttf|otf|svg|png|jpe?g|webp|avif|gif|ico))\b/g, '$1#$2'],
  [/"runtimeModuleIds":\[[\d,]*\]/g, '"runtimeModuleIds":[#]'],
  [/:I\[\d+,/g, ':I[#,'],
]);

/** The build id in a page's Flight payload: its first row's `"b"` (escaped as the joined payload holds it, or not). */
const BUILD_ID = /\\?"b\\?":\\?"([\w-]{4,})\\?"/;

/** A Next.js page as compared: its Flight pushes joined, then the build's id and names masked, the rest as it was. */
export const normalizeNextPage: ResponseNormalizer = (response) => {
  const joined = joinFlightChunks(response);
  const id = BUILD_ID.exec(joined)?.[1];
  return maskNames({ ...response, body: id ? joined.split(id).join('#build-id') : joined });
};
