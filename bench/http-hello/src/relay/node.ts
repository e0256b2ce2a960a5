/** the shared relay's JSON handler (bench/shared/relay/) on node:http through @hono/node-server's fetch adapter, 127.0.0.1 port 0; prints the port the kernel picked. */
import { serve } from '@hono/node-server';
import relay from '../../../shared/relay/json-handler.ts';

serve({ fetch: (request) => relay.fetch(request), hostname: '127.0.0.1', port: 0 }, (info) => console.log(`listening ${info.port}`));
