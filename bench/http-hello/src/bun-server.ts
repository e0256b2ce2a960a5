/** Bun.serve on 127.0.0.1, port 0; the server object knows the port the kernel picked. */
import { handle } from './routes.ts';

declare const Bun: { serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): { port: number } };

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle });
console.log(`listening ${server.port}`);
