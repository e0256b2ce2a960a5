/** A CSV column as every list under columns/ declares it: its key in the header and its raw value in a row. */
import { csvField } from '../text.ts';

export type CsvValue = string | number | boolean | undefined;

export interface CsvField<R> {
  readonly key: string;
  value(row: R): CsvValue;
}

export function field<R>(key: string, value: (row: R) => CsvValue): CsvField<R> {
  return { key, value };
}

/** The header and one line per row, each field quoted when it must be (text.ts csvField). */
export function csvTable<R>(fields: readonly CsvField<R>[], rows: Iterable<R>): string {
  const lines = [fields.map((f) => f.key).join(',')];
  for (const row of rows) lines.push(fields.map((f) => csvField(f.value(row))).join(','));
  return `${lines.join('\n')}\n`;
}
