/** The Hono app as a workerd fetch handler (workerd binds 127.0.0.1:0 and reports the port). */
import { app } from './hono.ts';

export default { fetch: (request: Request) => app.fetch(request) };
