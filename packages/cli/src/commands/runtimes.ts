/** `rtbench runtimes`: every runtime rtbench can run, its version, engine and binary. */
import Table from 'cli-table3';
import { isAbsolute, relative } from 'node:path';
import { stdoutColours as pc } from '../colours.ts';
import { repoRoot } from '../paths.ts';
import { RuntimeUnavailableError } from '@rtbench/runner-kit';
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
  note: string;
}

/** Paths inside the checkout are shown relative to it: the pnpm store paths are long. */
function displayPath(path: string): string {
  const rel = relative(repoRoot, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

export async function listRuntimes(): Promise<RuntimeRow[]> {
  const specs = RUNNERS.flatMap((runner) => runner.knownSpecs().filter((k) => !k.spec.includes('=')).map((k) => ({ runner, ...k })));
  return Promise.all(
    specs.map(async ({ runner, spec, note }): Promise<RuntimeRow> => {
      try {
        const t = await runner.resolve(spec);
        const engine = `${engineName(t.engine)} ${t.engineVersion}`;
        return { spec, available: true, version: t.version, engine, binary: t.binary, source: t.source, note };
      } catch (error) {
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
  const table = new Table({ head: ['runtime', 'version', 'engine', 'binary'].map((h) => pc.bold(h)), style: { head: [], border: [] } });
  for (const r of rows) {
    if (r.available) table.push([r.spec, r.version!, shortEngine(r.engine!), displayPath(r.binary!)]);
    // A runtime on PATH is optional; an npm install that is missing is a problem.
    else table.push([r.spec, { colSpan: 3, content: r.spec.endsWith('@system') ? pc.dim(r.note) : pc.red(r.note) }]);
  }
  process.stdout.write(`${table.toString()}\n`);
  const node = rows.find((r) => r.spec.startsWith('node@') && r.note.includes('`node` means this one'));
  const defaults = DEFAULT_RUNTIMES.map((s) => (s === 'node' && node ? `node (= ${node.spec})` : s)).join(', ');
  process.stdout.write(
    pc.dim(
      [
        `Default run (pnpm bench <suite> without --runtime): ${defaults}.`,
        'Also: <runtime>=/path/to/binary runs a build of your own (e.g. node=/src/node/out/Release/node).',
        "workerd's V8 version is read from its binary: workerd does not report it. Bun's engine is the WebKit revision of its JavaScriptCore.",
      ].join('\n') + '\n',
    ),
  );
  return 0;
}
