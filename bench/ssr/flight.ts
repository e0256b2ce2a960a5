/**
 * The Flight cases' work, as a framework does it for a request: the server
 * half (flight-server.ts, its own module graph under the `react-server`
 * condition) writes the Flight stream; the client (`createFromReadableStream`)
 * decodes it into a React tree; Fizz (`react-dom/server.edge`) renders that
 * tree, client components included, to HTML. Web streams on every runtime:
 * the `.edge` builds, which frameworks (Next.js's App Router among them)
 * import on node too.
 */
import { createElement, use, type ReactNode } from 'react';
import { renderToReadableStream as renderHtml } from 'react-dom/server.edge';
import { createFromReadableStream } from 'react-server-dom-webpack/client.edge';
import { seededRandom } from '@rtbench/core';
import { listing } from './data.ts';
import { CLIENT_MODULE_ID, installClientModules, serverConsumerManifest } from './flight-manifest.ts';
import { clientComponents } from './flight-client-components.ts';
import type { Review } from './flight-server.ts';

/** The page's size: 120 products in 4 Suspense-wrapped sections of 30 cards, and 240 reviews (a Flight payload of about 350 KB). */
const PRODUCTS = 120;
const SECTIONS = 4;
const REVIEWS = 240;

const WORDS = ['fits', 'well', 'sturdy', 'late', 'arrived', 'great', 'value', 'again', 'would', 'buy', 'colour', 'smaller', 'than', 'expected'];
function reviews(count: number, products: number, seed = 79): Review[] {
  const rnd = seededRandom(seed);
  return Array.from({ length: count }, (_, id) => ({
    id,
    productId: Math.floor(rnd() * products),
    author: `user${Math.floor(rnd() * 10_000)}`,
    stars: 1 + Math.floor(rnd() * 5),
    text: Array.from({ length: 12 + Math.floor(rnd() * 30) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' '),
  }));
}

export const flightData = { listing: listing(PRODUCTS), reviews: reviews(REVIEWS, PRODUCTS), sections: SECTIONS };

/** The server half, loaded in a case's setup: its graph is bundled apart, under the `react-server` condition. */
export type FlightServer = typeof import('./flight-server.ts');
let server: Promise<FlightServer> | undefined;
export function flightServer(): Promise<FlightServer> {
  installClientModules({ [CLIENT_MODULE_ID]: clientComponents });
  return (server ??= import('./flight-server.ts', { with: { conditions: 'react-server' } }));
}

/** The page's Flight stream, read to the end: its chunks, as a server would send them. */
export async function serialize(s: FlightServer): Promise<Uint8Array[]> {
  const { stream, errors } = s.renderFlight(flightData.listing, flightData.reviews, flightData.sections);
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  if (errors.length) throw errors[0];
  return chunks;
}

/** Chunks as a fresh byte stream, as the client receives a response body. */
export function streamOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
}

/** The decoded tree: Flight's client reads the whole stream, resolving every lazy chunk it holds. */
export function decode(stream: ReadableStream<Uint8Array>): Promise<ReactNode> {
  return createFromReadableStream<ReactNode>(stream, { serverConsumerManifest });
}

/** React's lazy node (`React.lazy`'s shape): a chunk the Flight client has or will have decoded. */
interface Lazy {
  $$typeof: symbol;
  _init(payload: unknown): unknown;
  _payload: unknown;
}
const isLazy = (n: unknown): n is Lazy => typeof n === 'object' && n !== null && (n as Lazy).$$typeof === Symbol.for('react.lazy');

/** The client components by identity, so the summary names them whatever the bundle called them. */
const clientNames = new Map<unknown, string>(Object.entries(clientComponents).map(([name, component]) => [component, name]));

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof v === 'object' && v !== null && typeof (v as PromiseLike<unknown>).then === 'function';

/**
 * What a decoded tree holds, in plain values: elements by type, and the
 * characters of text, read to its last node. A lazy node whose chunk has
 * not arrived yet is waited for (as Fizz waits for it), so the summary
 * proves the whole payload was decoded.
 */
export async function treeSummary(root: unknown): Promise<{ elements: Record<string, number>; textChars: number }> {
  const elements: Record<string, number> = {};
  let textChars = 0;
  let waiting: { until: PromiseLike<unknown>; node: Lazy }[] = [];
  const resolved = (lazy: Lazy): { value: unknown } | undefined => {
    try {
      return { value: lazy._init(lazy._payload) };
    } catch (thrown) {
      if (!isThenable(thrown)) throw thrown;
      waiting.push({ until: thrown, node: lazy });
      return undefined;
    }
  };
  const walk = (n: unknown): void => {
    if (n === null || n === undefined || typeof n === 'boolean') return;
    if (typeof n === 'string' || typeof n === 'number') {
      textChars += String(n).length;
      return;
    }
    if (Array.isArray(n)) return n.forEach(walk);
    if (isLazy(n)) {
      const found = resolved(n);
      return found && walk(found.value);
    }
    if (isThenable(n)) throw new Error('a decoded node is a promise, not an element');
    const node = n as { type?: unknown; props?: { children?: unknown } };
    // A client component's type is a lazy reference to its module until the element is rendered.
    const type = isLazy(node.type) ? resolved(node.type)?.value : node.type;
    const name = typeof type === 'string' ? type : typeof type === 'symbol' ? (type.description ?? 'symbol') : (clientNames.get(type) ?? 'other');
    elements[name] = (elements[name] ?? 0) + 1;
    walk(node.props?.children);
  };
  walk(root);
  while (waiting.length) {
    const now = waiting;
    waiting = [];
    for (const { until, node } of now) {
      await until;
      walk(node);
    }
  }
  return { elements, textChars };
}

const decoder = new TextDecoder();

/** A byte stream read to its end, as one string. */
export async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) text += decoder.decode(next.value, { stream: true });
  return text + decoder.decode();
}

/** The whole request: Flight stream → decoded tree → Fizz's HTML, every boundary resolved, read to the end. */
export async function flightToHtml(s: FlightServer): Promise<string> {
  const { stream, errors } = s.renderFlight(flightData.listing, flightData.reviews, flightData.sections);
  const tree = decode(stream);
  // Fizz renders the tree as the framework's SSR root does: suspending on the decoded payload.
  const Root = () => use(tree);
  const html = await renderHtml(createElement(Root), { onError: (error) => void errors.push(error) });
  await html.allReady;
  const text = await readText(html);
  if (errors.length) throw errors[0];
  return text;
}
