/** The relay reading a JSON body: `await request.json()` and the field checks. */
import { fieldsFromJson } from './body.ts';
import { relay } from './relay.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    return relay(fieldsFromJson(await request.json()), request);
  },
};
