/** The steady handler's work without reading the body. */
import { BASE_STEPS, work } from '../../../../../bench/request-tail/work.ts';

export default {
  fetch(): Response {
    return new Response(`${work(BASE_STEPS)}`);
  },
};
