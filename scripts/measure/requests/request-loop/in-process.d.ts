/** The in-process loop's Worker beside this file. */
declare const worker: { fetch(request: Request): Promise<Response> };
export default worker;
