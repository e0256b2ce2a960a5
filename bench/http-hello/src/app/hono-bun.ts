/** The Hono app on Bun.serve, as Hono's docs serve it there. */
import { serveOnBun } from '../serve-bun.ts';
import { app } from './hono.ts';

serveOnBun(app.fetch);
