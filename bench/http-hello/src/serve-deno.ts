/** Deno.serve on 127.0.0.1, port 0; onListen prints the port the kernel picked. */
declare const Deno: {
  serve(options: { hostname: string; port: number; onListen(addr: { port: number }): void }, handler: (request: Request) => Response | Promise<Response>): unknown;
};

export function serveOnDeno(handler: (request: Request) => Response | Promise<Response>): void {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, handler);
}
