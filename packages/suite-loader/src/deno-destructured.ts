/**
 * `Deno.bench` taken out of the global by destructuring (`const { bench } =
 * Deno`), as some `deno bench` files do: the bundler's rewrite of the member
 * expression (bundle.ts) does not see it, so the destructured global is
 * rewritten here to an object that hands out the adapter's bench and the
 * runtime's own members for every other name (none where the runtime has no
 * such global).
 */

/** A destructuring of bench out of the global, e.g. `const { bench, test } = Deno`. */
const TAKES_DENO_BENCH_OUT = /(\{[^{}]*\bbench\b[^{}]*\})\s*=\s*Deno\b(?!\s*\.)/g;

/** Whether the source takes bench out of the global by destructuring. */
export function takesDenoBenchOut(source: string): boolean {
  return new RegExp(TAKES_DENO_BENCH_OUT.source).test(source);
}

/** The source with each such destructuring taking `bench` from `adapter` (an identifier the file imports). */
export function withDenoBenchTakenOut(source: string, adapter: string): string {
  const stand = `new Proxy({}, { get: (_, key) => (key === 'bench' ? ${adapter} : globalThis.Deno?.[key]) })`;
  return source.replace(TAKES_DENO_BENCH_OUT, (_, pattern: string) => `${pattern} = ${stand}`);
}
