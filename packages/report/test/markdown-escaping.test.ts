/**
 * The markdown escaping every reporter uses: a cell shows its text and makes
 * no link, image, code span, HTML, mention or reference; a code span and a
 * fence cannot be ended by what they hold, and keep a name on its line.
 */
import { describe, expect, it } from 'vitest';
import { markdownCell, markdownCode, markdownFence } from '../src/text.ts';
import { liveMarkdown } from '../../../test/helpers/markdown-inert.ts';

const NAME = 'x ![img](https://e.example/i.png) [link](http://e.example) <b>b</b> @someone #42 `tick` ``two`` \\| www.e.example';

describe('markdown escaping', () => {
  it('makes a cell inert: no image, link, HTML, mention, reference or code span', () => {
    const cell = markdownCell(NAME);
    expect(liveMarkdown(`| ${cell} |`, 'x')).toEqual([]);
    expect(cell).toContain('!\\[img]\\(https:\u200b//e.example/i.png)');
    expect(cell).toContain('@\u200bsomeone #\u200b42');
    expect(cell).toContain('\\`tick\\`');
    // A backslash before a pipe is shown, and the pipe still cannot split the cell.
    expect(cell).toContain('\\\\\\|');
    // Brackets that make no link stay as they are (an interval).
    expect(markdownCell('1.2× [1.1–1.3]')).toBe('1.2× [1.1–1.3]');
  });

  it('writes a code span that nothing inside ends, on one line', () => {
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('``x``')).toBe('``` ``x`` ```');
    expect(markdownCode('a\nb|c')).toBe('`a\\nb\\|c`');
    expect(liveMarkdown(`see ${markdownCode('y ``` ![i](u) ` [l](u) @who')} here`, 'see')).toEqual([]);
  });

  it('writes a fence that no line closes, and keeps each line its own', () => {
    const fenced = markdownFence(['rtbench bench s --filter \'/^a\n```\n# heading ![i](u)$/\''], 'sh', '  ');
    expect(fenced).toHaveLength(3);
    expect(fenced[0]).toBe('  ````sh');
    expect(fenced[2]).toBe('  ````');
    expect(liveMarkdown([...fenced, 'after ![i](u)'].join('\n'), 'heading')).toEqual([]);
    // What follows the fence is outside it: the checker sees it.
    expect(liveMarkdown([...fenced, 'heading ![i](u)'].join('\n'), 'heading')).toHaveLength(1);
  });
});

describe("a saved run's machine fields in markdown", () => {
  it('forge no heading, table row or tag: a newline, a pipe and markup in the CPU model and kernel stay inside their line', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { parseRun } = await import('@rtbench/core/schema');
    const { reporterFor, viewOfRun } = await import('../src/index.ts');
    const results = join(import.meta.dirname, '..', '..', '..', 'results');
    const hostile = (file: string) => {
      const run = parseRun(JSON.parse(readFileSync(join(results, file), 'utf8')), file);
      return { ...run, host: { ...run.host, cpuModel: 'MARK cpu\n## forged heading\n| forged | row |\n<img src=x onerror=alert(1)>', release: 'MARK kernel\n# forged <script>alert(2)</script>' } };
    };
    for (const file of ['20261121-124315Z-json-reviver.json', '20261121-130300Z-gc-pressure-compare.json']) {
      const out = reporterFor('markdown')!.render(viewOfRun(hostile(file), { file }), { color: false, columns: 100, plot: false });
      expect(liveMarkdown(out, 'MARK'), file).toEqual([]);
      const lines = out.split('\n');
      expect(lines.filter((l) => /forged/.test(l) && !/MARK/.test(l)), file).toEqual([]);
      expect(lines.filter((l) => /^#/.test(l) && /forged/.test(l)), file).toEqual([]);
    }
  });
});

const capitalised = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

describe("a bench table's header in markdown", () => {
  it('names the suite, each runtime with its version or why it did not run, the rounds, how and where it was measured, each on its line', async () => {
    const { howMeasured, hostLines } = await import('../src/cells/run.ts');
    const { reporterFor, viewOfRun } = await import('../src/index.ts');
    const { syntheticRun } = await import('../../../test/compare-synthetic.ts');
    const run = syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1 }, { id: 'deno', factor: 1 }], rounds: 4 });
    run.suite = 'my|suite';
    run.variants = run.variants.map((v) => (v.id === 'bun' ? { ...v, version: '1.4.5' } : v.id === 'deno' ? { ...v, unavailable: 'not installed' } : { ...v, version: '26.1.0' }));
    run.results = run.results.filter((r) => r.variantId !== 'deno');
    const markdown = reporterFor('markdown')!;
    const draw = (r: typeof run): string[] => markdown.render(viewOfRun(r), { color: false, columns: 100, plot: false }).split('\n');
    const view = viewOfRun(run);
    const versions = view.kind === 'bench' ? view.variants.map((v) => v.versionText) : [];
    const lines = draw(run);
    expect(lines.slice(0, 4)).toEqual([
      '### rtbench: my\\|suite',
      '',
      `Runtimes: \`node\` ${versions[0]}, \`bun\` ${versions[1]}, \`deno\` (did not run: not installed). Rounds: 4 a row, 4 processes each. ${capitalised(markdownCell(howMeasured(run.options)))}. ${markdownCell(hostLines({ run }).join('; '))}.`,
      '',
    ]);
    const adaptive = draw({ ...run, options: { ...run.options, adaptive: { target: 0.02, maxRounds: 30, minRounds: 6 } } as typeof run.options });
    // The rounds the rows got, beside the plan that allowed more.
    expect(adaptive[2]).toContain('. Rounds: 4 a row, 4 processes each; planned 6–30 until ±2%. ');
  });
});
