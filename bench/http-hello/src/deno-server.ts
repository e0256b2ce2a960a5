/** Deno.serve on 127.0.0.1, port 0; onListen prints the port the kernel picked. */
import { handle } from './routes.ts';

declare const Deno: {
  serve(options: { hostname: string; port: number; onListen(addr: { port: number }): void }, handler: (request: Request) => Promise<Response>): unknown;
};

Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, handle);
