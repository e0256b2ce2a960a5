/**
 * The steady handler's work of bench/request-tail as an ordinary case: the
 * same function and steps, timed in the runtime's loop. Run beside the
 * request case by scripts/measure/requests/request-agreement.ts.
 */
import { bench, suite } from '@rtbench/core';
import { BASE_STEPS, work } from '../../../../bench/request-tail/work.ts';

export default suite('request-agreement', () => {
  bench('steady handler work', () => work(BASE_STEPS));
});
