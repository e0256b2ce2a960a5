/** The framework app on Hono (see shape.ts): router, timing middleware, error handler. */
import { Hono } from 'hono';
import { BOOM, HELLO, TIMING_HEADER, timing, user } from './shape.ts';

export const app = new Hono();

app.use(async (c, next) => {
  const started = performance.now();
  await next();
  c.header(TIMING_HEADER, timing(started));
});
app.get('/', (c) => c.text(HELLO));
app.get('/users/:id', (c) => c.json(user(c.req.param('id'))));
app.get('/boom', () => {
  throw new Error(BOOM);
});
app.onError((error, c) => c.json({ error: error.message }, 500));

/** The app as a fetch handler module, served by each runtime's own server (on node:http through @hono/node-server, as Hono's docs serve it). */
export default { fetch: (request: Request) => app.fetch(request) };
