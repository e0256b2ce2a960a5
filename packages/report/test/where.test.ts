import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { functionName } from '../src/names.ts';
import { renderComparisonMarkdown } from '../src/reporters/markdown.ts';
import { renderComparisonTerminal } from '../src/reporters/terminal.ts';
import { pairedComparisonView } from '../src/views/comparison.ts';

describe('functionName', () => {
  it('keeps what a function is called across builds: no return type, template arguments, parameters, qualifiers or clone suffix', () => {
    expect(functionName('v8::internal::MaybeHandle<v8::internal::Object> v8::internal::JsonParser<unsigned char>::ParseJsonValue<true>()')).toBe('v8::internal::JsonParser<…>::ParseJsonValue<…>');
    expect(functionName("v8::internal::MaybeHandle<v8::internal::Object> v8::internal::JsonParseInternalizer::InternalizeJsonProperty<(v8::internal::JsonParseInternalizer::ReviverMode)2>(v8::internal::DirectHandle<v8::internal::JSReceiver>)'2")).toBe('v8::internal::JsonParseInternalizer::InternalizeJsonProperty<…>');
    expect(functionName('v8::internal::LookupIterator::FetchValue(v8::internal::AllocationPolicy) const')).toBe('v8::internal::LookupIterator::FetchValue');
    expect(functionName('std::_Function_handler<void (), Foo>::_M_invoke(std::_Any_data const&) [clone .isra.0]')).toBe('std::_Function_handler<…>::_M_invoke');
    expect(functionName('Builtins_JsonParse')).toBe('Builtins_JsonParse');
    expect(functionName('0x0000000001b3f8a0')).toBe('0x0000000001b3f8a0');
  });
});

/** A --compare run whose 'parse' case the candidate does in 20% more instructions, and whose 'same' case it does alike, with the functions of each arm's counted sample recorded in its first round. */
function countedRun(functions: Record<string, Record<string, [string, number][]>>): RunRecord {
  const run = syntheticRun({
    mode: 'compare',
    cases: [
      { id: 'parse', ns: 1000 },
      { id: 'same', ns: 1000 },
    ],
    arms: [
      { id: 'node@24', factor: 1 },
      { id: 'node@26', factor: 1.2, overrides: { same: { factor: 1 } } },
    ],
    rounds: 12,
    sigma: 0.001,
  });
  run.options.measurer = 'instructions';
  run.cases = run.cases.map((c) => ({ ...c, metric: { name: 'instructions per operation', unit: 'instructions', direction: 'lower-is-better' } }));
  for (const result of run.results) {
    const recorded = functions[result.caseId]?.[result.variantId];
    if (recorded) result.rounds[0]!.counts = { tool: 'callgrind', iterations: [0, 1], instructions: [0, 1000], functions: recorded };
  }
  return run;
}

describe('where a count moved', () => {
  const sides: Record<string, [string, number][]> = {
    'node@24': [
      ['v8::internal::MaybeHandle<v8::internal::Object> v8::internal::JsonParser<unsigned char>::ParseJsonValue<false>()', 500],
      ['v8::internal::JsonParser<unsigned char>::SkipWhitespace()', 150],
      ['Builtins_JsonParse', 100],
      ['memcpy', 50],
    ],
    'node@26': [
      // The same function with another template argument and return type: one function by its short name.
      ['v8::internal::Handle<v8::internal::Object> v8::internal::JsonParser<unsigned char>::ParseJsonValue<true>()', 800],
      ['Builtins_JsonParse', 101],
      ['memcpy', 50],
      ['v8::internal::FastJsonParser::Run()', 60],
    ],
  };
  const run = countedRun({ parse: sides, same: sides });
  const view = pairedComparisonView(run);
  const [parse, same] = view.sections[0]!.cases;

  it('names the functions whose own instructions per call changed most, on a decided case only', () => {
    expect(parse!.comparison!.verdict).toBe('slower');
    expect(parse!.where).toEqual([
      { name: 'v8::internal::JsonParser<…>::ParseJsonValue<…>', baseline: 500, candidate: 800 },
      { name: 'v8::internal::JsonParser<…>::SkipWhitespace', baseline: 150 },
      { name: 'v8::internal::FastJsonParser::Run', candidate: 60 },
    ]);
    // Equivalent: nothing moved to explain.
    expect(same!.comparison!.verdict).toBe('equivalent');
    expect(same!.where).toBeUndefined();
  });

  it('prints them under the table in the terminal and in markdown', () => {
    const text = renderComparisonTerminal(view, { color: false, columns: 200 });
    expect(text).toContain('where the instructions moved');
    expect(text).toContain('parse: v8::internal::JsonParser<…>::ParseJsonValue<…> +300 (500 → 800), v8::internal::JsonParser<…>::SkipWhitespace −150 (150 → –), v8::internal::FastJsonParser::Run +60.0 (– → 60.0)');
    expect(text).not.toContain('same: ');
    const md = renderComparisonMarkdown(view);
    expect(md).toContain('- `parse`: `v8::internal::JsonParser<…>::ParseJsonValue<…>` +300 (500 → 800), `v8::internal::JsonParser<…>::SkipWhitespace` −150 (150 → –)');
  });

  it('says nothing when an arm recorded no functions (runs before they were recorded, or timed runs)', () => {
    const older = pairedComparisonView(countedRun({ parse: { 'node@24': sides['node@24']! } }));
    expect(older.sections[0]!.cases[0]!.comparison!.verdict).toBe('slower');
    expect(older.sections[0]!.cases[0]!.where).toBeUndefined();
    expect(renderComparisonTerminal(older, { color: false, columns: 200 })).not.toContain('where the instructions moved');
  });
});
