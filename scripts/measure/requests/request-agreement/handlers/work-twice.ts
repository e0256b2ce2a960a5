/**
 * The steady handler's work twice in one request, without reading the body:
 * less the work-only handler, what the work costs inside a request with the
 * server's part taken out (the second call's steps differ by one, so the
 * two calls cannot be folded into one).
 */
import { BASE_STEPS, work } from '../../../../../bench/request-tail/work.ts';

export default {
  fetch(): Response {
    return new Response(`${work(BASE_STEPS) + work(BASE_STEPS + 1)}`);
  },
};
