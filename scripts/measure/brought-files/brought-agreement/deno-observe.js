// Records each call of every Deno.bench function under deno bench: the call's
// time (or its b.start()/b.end() region), in ns, written when the process ends.
const AsyncFunction = (async () => {}).constructor;
const clock = () => performance.now() * 1e6;
const records = {};
const realBench = Deno.bench;

function parse(args) {
  const [a, b, c] = args;
  if (typeof a === 'string') return typeof b === 'function' ? { name: a, fn: b } : { ...b, name: a, fn: c };
  if (typeof a === 'function') return { name: a.name, fn: a };
  return typeof b === 'function' ? { ...a, fn: b, name: a.name ?? b.name } : { ...a };
}

Deno.bench = function observedBench(...args) {
  const def = parse(args);
  const fn = def.fn;
  const times = (records[(def.group ? `${def.group} / ` : '') + def.name] = []);
  const regionOf = (b) => {
    const region = { start: 0, end: 0 };
    const context = { name: b.name, origin: b.origin, start() { b.start(); region.start = clock(); }, end() { region.end = clock(); b.end(); } };
    return { region, context };
  };
  const wrapped = fn.constructor === AsyncFunction
    ? async function (b) {
        const { region, context } = regionOf(b);
        const t0 = clock();
        await fn(context);
        const t1 = clock();
        times.push(region.start ? region.end - region.start : t1 - t0);
      }
    : function (b) {
        const { region, context } = regionOf(b);
        const t0 = clock();
        const r = fn(context);
        const t1 = clock();
        times.push(region.start ? region.end - region.start : t1 - t0);
        return r;
      };
  return realBench.call(Deno, { ...def, fn: wrapped });
};

globalThis.addEventListener('unload', () => {
  Deno.writeTextFileSync(Deno.env.get('RTBENCH_OBSERVE_OUT'), JSON.stringify(records));
});
