/** the shared relay's JSON handler (bench/shared/relay/) on Deno.serve (127.0.0.1, port 0). */
import relay from '../../../shared/relay/json-handler.ts';
import { serveOnDeno } from '../serve-deno.ts';

serveOnDeno((request) => relay.fetch(request));
