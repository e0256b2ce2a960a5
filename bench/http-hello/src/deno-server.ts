/** The minimal server on Deno.serve (127.0.0.1, port 0). */
import { handle } from './routes.ts';
import { serveOnDeno } from './serve-deno.ts';

serveOnDeno(handle);
