/** Bun's own server for a request case's fetch handler (the plug-in's `programs.fetchServer`). */
import type { ServeFetch } from '@rtbench/runtime-kit';

interface BunServe {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number };
}

const Bun = (globalThis as unknown as { Bun: BunServe }).Bun;

export const serveFetch: ServeFetch = (handler, listening) => {
  listening(Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler }).port);
};
