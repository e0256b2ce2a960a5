/** Deno's own server for a request case's fetch handler (the plug-in's `programs.fetchServer`). */
import type { ServeFetch } from '@rtbench/runtime-kit';

interface DenoServe {
  serve(options: { hostname: string; port: number; onListen(addr: { port: number }): void }, handler: (request: Request) => Promise<Response>): unknown;
}

const Deno = (globalThis as unknown as { Deno: DenoServe }).Deno;

export const serveFetch: ServeFetch = (handler, listening) => {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => listening(port) }, handler);
};
