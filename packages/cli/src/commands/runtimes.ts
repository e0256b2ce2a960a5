/** `rtbench runtimes`: every runtime rtbench can run, its version, engine and binary. */
import Table from 'cli-table3';
import { isAbsolute, relative } from 'node:path';
import { stdoutColours as pc } from '../colours.ts';
import { repoRoot } from '../paths.ts';
import { RuntimeNotInstalledError, RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runner-kit';
import { runtimeStore } from '../runtime-store.ts';
import { engineName } from '@rtbench/report';
import { DEFAULT_RUNTIMES, RUNNERS } from '../runners.ts';

export interface RuntimeRow {
  spec: string;
  available: boolean;
  version?: string;
  /** "V8 15.0.245.2-rusty" or "JavaScriptCore <WebKit revision>". */
  engine?: string;
  binary?: string;
  source?: 'npm' | 'system' | 'path';
  /** Where the binary came from: node_modules of rtbench's checkout, the cache of installs on demand, PATH, a path named. */
  from?: 'workspace' | 'cache' | 'PATH' | 'path';
  /** A pinned npm runtime in neither place: the first run that uses it installs it. */
  installsOnFirstUse?: boolean;
  note: string;
}

function fromOf(t: RuntimeTarget): NonNullable<RuntimeRow['from']> {
  if (t.source === 'system') return 'PATH';
  if (t.source === 'path') return 'path';
  return t.npmLocation ?? 'workspace';
}

/** Paths inside the checkout are shown relative to it: the pnpm store paths are long. */
function displayPath(path: string): string {
  const rel = relative(repoRoot, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Every known spec, found without installing anything (a runtime in neither place says it will be installed on first use). */
export async function listRuntimes(): Promise<RuntimeRow[]> {
  const store = runtimeStore();
  const lookOnly = store.withoutInstalling();
  const specs = RUNNERS.flatMap((runner) => runner.knownSpecs().filter((k) => !k.spec.includes('=')).map((k) => ({ runner, ...k })));
  return Promise.all(
    specs.map(async ({ runner, spec, note }): Promise<RuntimeRow> => {
      try {
        const t = await runner.resolve(spec, lookOnly);
        const engine = `${engineName(t.engine)} ${t.engineVersion}`;
        return { spec, available: true, version: t.version, engine, binary: t.binary, source: t.source, from: fromOf(t), note };
      } catch (error) {
        if (error instanceof RuntimeNotInstalledError && error.installable && store.installsOnDemand) {
          return { spec, available: false, installsOnFirstUse: true, note: `not installed: will be installed on first use (${error.pinned})` };
        }
        if (error instanceof RuntimeUnavailableError) return { spec, available: false, note: error.message };
        throw error;
      }
    }),
  );
}

/** A WebKit revision is a 40-digit hash; 12 digits identify it in a table. */
function shortEngine(engine: string): string {
  return engine.replace(/^(JavaScriptCore [0-9a-f]{12})[0-9a-f]{28}$/, '$1');
}

export async function runtimesCommand(json: boolean): Promise<number> {
  const rows = await listRuntimes();
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const table = new Table({ head: ['runtime', 'version', 'engine', 'from', 'binary'].map((h) => pc.bold(h)), style: { head: [], border: [] } });
  for (const r of rows) {
    if (r.available) table.push([r.spec, r.version!, shortEngine(r.engine!), r.from!, displayPath(r.binary!)]);
    // A runtime on PATH is optional and one installed on first use is fine; any other missing npm runtime is a problem.
    else table.push([r.spec, { colSpan: 4, content: r.spec.endsWith('@system') || r.installsOnFirstUse ? pc.dim(r.note) : pc.red(r.note) }]);
  }
  process.stdout.write(`${table.toString()}\n`);
  const node = rows.find((r) => r.spec.startsWith('node@') && r.note.includes('`node` means this one'));
  const defaults = DEFAULT_RUNTIMES.map((s) => (s === 'node' && node ? `node (= ${node.spec})` : s)).join(', ');
  process.stdout.write(
    pc.dim(
      [
        `Default run (pnpm bench <suite> without --runtime): ${defaults}.`,
        'Also: <runtime>=/path/to/binary runs a build of your own (e.g. node=/src/node/out/Release/node).',
        `from: workspace = node_modules of rtbench's checkout, cache = installed on demand into ${displayPath(runtimeStore().dir ?? '')}, PATH = <runtime>@system.`,
        "workerd's V8 version is read from its binary: workerd does not report it. Bun's engine is the WebKit revision of its JavaScriptCore.",
      ].join('\n') + '\n',
    ),
  );
  return 0;
}
