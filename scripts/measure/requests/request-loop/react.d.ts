/** The Worker beside this file, as the loop imports it. */
declare const worker: { fetch(request?: Request): Response };
export default worker;
