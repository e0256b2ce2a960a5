/**
 * json-reviver: what a reviver costs JSON.parse. See README.md for the claim.
 */
import { bench, group, suite } from '@rtbench/core';
import { flightDocument, SIZES, type SizeName } from './document.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/** Built once per size and process: every case of a size parses the same bytes, and a process serving many cases (warm lockstep, instruction counts) builds each document once. */
const texts = new Map<SizeName, string>();
function textFor(size: SizeName): string {
  let text = texts.get(size);
  if (text === undefined) texts.set(size, (text = flightDocument(SIZES[size])));
  return text;
}

const sizes = Object.keys(SIZES) as SizeName[];

export default suite('json-reviver', () => {
  group('parse', () => {
    bench('no reviver', function* (ctx) {
      const text = textFor(ctx.get('size'));
      yield () => JSON.parse(text);
    }).args('size', sizes);

    bench('identity reviver (arrow)', function* (ctx) {
      const text = textFor(ctx.get('size'));
      const reviver = (_key: string, value: unknown) => value;
      yield () => JSON.parse(text, reviver);
    }).args('size', sizes);

    bench('identity reviver (function)', function* (ctx) {
      const text = textFor(ctx.get('size'));
      const reviver = function (_key: string, value: unknown) {
        return value;
      };
      yield () => JSON.parse(text, reviver);
    }).args('size', sizes);

    // The same identity reviver, but declaring the third (source-context)
    // parameter it never reads. An engine may decide from the reviver's
    // declared arity whether to build source-text context for every value.
    bench('identity reviver declaring a context parameter', function* (ctx) {
      const text = textFor(ctx.get('size'));
      const reviver = (_key: string, value: unknown, _context?: { source?: string }) => value;
      yield () => JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
    }).args('size', sizes);

    bench('source-context reviver', function* (ctx) {
      // The third argument (TC39 "JSON.parse source text access") gives the
      // raw source of each primitive. Engines without it pass nothing.
      const probe = JSON.parse('1', ((_k: string, _v: unknown, context?: { source?: string }) => context?.source) as Reviver);
      if (probe !== '1') ctx.unsupported('this engine does not pass the source-text context (third reviver argument) to JSON.parse revivers');
      const text = textFor(ctx.get('size'));
      // Read the source of every number: large integers would be kept exact as BigInt.
      const reviver: Reviver = (_key, value, context) =>
        typeof value === 'number' && context?.source !== undefined && context.source.length > 15 ? BigInt(context.source) : value;
      yield () => JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
    }).args('size', sizes);

    bench('date-reviving reviver', function* (ctx) {
      const text = textFor(ctx.get('size'));
      const reviver = (_key: string, value: unknown) => (typeof value === 'string' && ISO_DATE.test(value) ? new Date(value) : value);
      yield () => JSON.parse(text, reviver);
    }).args('size', sizes);

    // What React's flight client does with a payload: every ["$", type, key,
    // props] tuple becomes an element object. The reviver runs bottom-up, so
    // props arrive already revived. One new object per element on top of the
    // parse: the allocation load the gc-pressure suite is about.
    bench('element-building reviver (flight-like)', function* (ctx) {
      const text = textFor(ctx.get('size'));
      const reviver = (_key: string, value: unknown) =>
        Array.isArray(value) && value.length === 4 && value[0] === '$'
          ? { $$typeof: 'element', type: value[1] as unknown, key: value[2] as unknown, props: value[3] as unknown }
          : value;
      yield () => JSON.parse(text, reviver);
    }).args('size', sizes);
  });

  group('stringify', () => {
    bench('JSON.stringify', function* (ctx) {
      const value: unknown = JSON.parse(textFor(ctx.get('size')));
      yield () => JSON.stringify(value);
    }).args('size', sizes);
  });
});
export { claims } from './claims.ts';
