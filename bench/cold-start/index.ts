/**
 * cold-start: does a bigger bundle start slower, and by how much?
 *
 * Timed by the host: from spawning the runtime to the program's first line
 * (workerd: the first response of a new `workerd serve`). Programs: an empty
 * one (the runtime's floor), generated bundles of 10 KB to 5 MB, and two real
 * libraries bundled by esbuild (React's server renderer, zod). With
 * cache=warm the runtime's own cache between runs is filled first (node's
 * compile cache, deno's V8 code cache, bun's transpiler cache), so the
 * difference to cache=none is the share of start-up spent compiling. The
 * 'isolate start' group loads the program as a new worker into a running
 * workerd through its worker loader: isolate start without process start.
 */
import { hostTimedSuite, type GeneratedModules, type StartupMeasurement } from '@rtbench/host-timed';
import { generatedModulePath } from './src/generate.ts';

const here = (file: string): string => new URL(file, import.meta.url).pathname;

export const GENERATED_SIZES = { '10kb': 10_000, '100kb': 100_000, '1mb': 1_000_000, '5mb': 5_000_000 } as const;

interface Program {
  name: string;
  params: Record<string, string>;
  program: string | ((generated: GeneratedModules) => string);
}

const programs: Program[] = [
  { name: 'empty', params: {}, program: here('./src/empty.ts') },
  ...Object.entries(GENERATED_SIZES).map(([size, bytes]) => ({ name: 'generated', params: { size }, program: (generated: GeneratedModules) => generatedModulePath(generated, bytes) })),
  { name: 'react-dom/server renderToString', params: {}, program: here('./src/react-ssr.ts') },
  { name: 'zod schema + parse', params: {}, program: here('./src/zod-validate.ts') },
];

const measurements: StartupMeasurement[] = [
  ...programs.map((p): StartupMeasurement => ({ kind: 'startup', group: 'process start', name: p.name, params: { ...p.params, cache: 'none' }, program: p.program, cache: 'none', start: 'process' })),
  ...programs
    .filter((p) => p.name !== 'empty')
    .map((p): StartupMeasurement => ({ kind: 'startup', group: 'process start', name: p.name, params: { ...p.params, cache: 'warm' }, program: p.program, cache: 'warm', start: 'process' })),
  ...programs.map((p): StartupMeasurement => ({ kind: 'startup', group: 'isolate start', name: p.name, params: p.params, program: p.program, cache: 'none', start: 'isolate' })),
];

export default hostTimedSuite('cold-start', measurements);
export { claims } from './claims.ts';
