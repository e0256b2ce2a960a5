/** Bun.serve on 127.0.0.1, port 0; the server object knows the port the kernel picked. */
declare const Bun: { serve(options: { hostname: string; port: number; fetch: (request: Request) => Response | Promise<Response> }): { port: number } };

export function serveOnBun(handler: (request: Request) => Response | Promise<Response>): void {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
  console.log(`listening ${server.port}`);
}
