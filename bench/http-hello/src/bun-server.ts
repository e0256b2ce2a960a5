/** The minimal server on Bun.serve (127.0.0.1, port 0). */
import { handle } from './routes.ts';
import { serveOnBun } from './serve-bun.ts';

serveOnBun(handle);
