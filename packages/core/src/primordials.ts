/**
 * Built-ins the harness calls after case code has run, taken when the
 * harness loads (the bundle imports the runtime's entry, and so this module,
 * before the suite). A case may replace Math.max or Object.keys, on purpose or
 * through a polyfill; the timing loop, the clock, the metrics probes and the
 * protocol keep using the originals. Array and typed-array methods are not
 * taken here: the harness's hot paths use plain loops and index stores
 * instead, and where it needs one it calls it through `apply`.
 */
export const { abs, ceil, max, min, round, sqrt } = Math;
const apply = Reflect.apply;
export const objectKeys = Object.keys;
export const objectAssign = Object.assign;
