/** The Hono app on Deno.serve, as Hono's docs serve it there. */
import { serveOnDeno } from '../serve-deno.ts';
import { app } from './hono.ts';

serveOnDeno(app.fetch);
