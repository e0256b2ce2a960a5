/**
 * The page as compared across runtimes. Next.js inlines the page's Flight
 * payload (React's Server Components stream) in the HTML as it streams, one
 * `<script>self.__next_f.push([1,"…"])</script>` per chunk the server
 * flushed, so where the chunks break follows the runtime's streams: Next.js's
 * server on node wrote this page's payload in 69 scripts, OpenNext's Worker
 * on workerd in one, the same 264,666 characters. The text compared is the
 * HTML without those scripts, then the payload's pushes in order with the
 * text chunks joined: another page, payload or order still differs.
 * Then the names a build gives (its chunks' file names, the module ids of
 * client references and of the runtime's modules) are masked: two
 * Next.js versions build the same app under other names, and the page they
 * render is otherwise the same; how many chunks, and where, still counts.
 */
import type { ResponseNormalizer } from '@rtbench/core';

const PUSH = /<script>self\.__next_f\.push\((\[[\s\S]*?\])\)<\/script>/g;

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

/** A build's chunk file names, its runtime's module ids and a client reference's module id (a Flight `I[<id>,…]` row). */
const BUILD_NAMES: readonly [RegExp, string][] = [
  [/static\/chunks\/[\w~-]+(\.[a-z]+)/g, 'static/chunks/#$1'],
  [/"runtimeModuleIds":\[[\d,]*\]/g, '"runtimeModuleIds":[#]'],
  [/:I\[\d+,/g, ':I[#,'],
];

/** The text with a build's names masked, the rest as it was. */
export function maskBuildNames(text: string): string {
  return BUILD_NAMES.reduce((out, [pattern, mask]) => out.replace(pattern, mask), text);
}

/** The page as compared: its Flight pushes joined, then the build's names masked. */
export const normalizePage: ResponseNormalizer = (response) => maskBuildNames(joinFlightChunks(response));
