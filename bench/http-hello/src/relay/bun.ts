/** the shared relay's JSON handler (bench/shared/relay/) on Bun.serve (127.0.0.1, port 0). */
import relay from '../../../shared/relay/json-handler.ts';
import { serveOnBun } from '../serve-bun.ts';

serveOnBun((request) => relay.fetch(request));
