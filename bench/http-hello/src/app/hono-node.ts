/** The Hono app on node through @hono/node-server, 127.0.0.1 port 0; prints the port the kernel picked. */
import { serve } from '@hono/node-server';
import { app } from './hono.ts';

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => console.log(`listening ${info.port}`));
