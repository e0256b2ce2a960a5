/** `rtbench runtimes`: every runtime rtbench can run, its version, engine and binary. */
import Table from 'cli-table3';
import pc from 'picocolors';
import { RuntimeUnavailableError } from '@rtbench/runner-kit';
import { RUNNERS } from '../runners.ts';

export interface RuntimeRow {
  spec: string;
  available: boolean;
  version?: string;
  engine?: string;
  binary?: string;
  note: string;
}

export async function listRuntimes(): Promise<RuntimeRow[]> {
  const specs = RUNNERS.flatMap((runner) => runner.knownSpecs().filter((k) => !k.spec.includes('=')).map((k) => ({ runner, ...k })));
  return Promise.all(
    specs.map(async ({ runner, spec, note }): Promise<RuntimeRow> => {
      try {
        const t = await runner.resolve(spec);
        return { spec, available: true, version: t.version, engine: `${t.engine === 'v8' ? 'V8' : 'JavaScriptCore'} ${t.engineVersion}`, binary: t.binary, note };
      } catch (error) {
        if (error instanceof RuntimeUnavailableError) return { spec, available: false, note: error.message };
        throw error;
      }
    }),
  );
}

export async function runtimesCommand(json: boolean): Promise<number> {
  const rows = await listRuntimes();
  if (json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    const table = new Table({ head: ['runtime', 'version', 'engine', 'binary'].map((h) => pc.bold(h)), style: { head: [], border: [] } });
    for (const r of rows) table.push(r.available ? [r.spec, r.version!, r.engine!, r.binary!] : [r.spec, { colSpan: 3, content: pc.red(r.note) }]);
    process.stdout.write(`${table.toString()}\n`);
    process.stdout.write(pc.dim('Also: <runtime>=/path/to/binary runs a build of your own (e.g. node=/src/node/out/Release/node).\n'));
  }
  return 0;
}
