/** The same handler with a planted tail: every TAIL_EVERY-th request it serves does TAIL_STEPS more. */
import { BASE_STEPS, TAIL_EVERY, TAIL_STEPS, work } from './work.ts';

let served = 0;

export default {
  async fetch(request: Request): Promise<Response> {
    const body = await request.text();
    const steps = ++served % TAIL_EVERY === 0 ? BASE_STEPS + TAIL_STEPS : BASE_STEPS;
    return new Response(`${body.length} ${work(steps)}`);
  },
};
