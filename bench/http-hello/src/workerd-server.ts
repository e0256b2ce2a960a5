/** A workerd fetch handler; workerd binds 127.0.0.1:0 from its config and reports the port on its control fd. */
import { handle } from './routes.ts';

export default { fetch: handle };
