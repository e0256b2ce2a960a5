/** The handler without a tail: the same work on every request. */
import { BASE_STEPS, work } from './work.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    const body = await request.text();
    return new Response(`${body.length} ${work(BASE_STEPS)}`);
  },
};
