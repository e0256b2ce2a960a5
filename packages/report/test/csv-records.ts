/** The tests' reading of the CSV reporters' output, as a spreadsheet reads it. */

/**
 * RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks.
 * Reads a run of plain characters at a time (a raw-sample csv is megabytes).
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const special = /[",\n]/g;
  let field = '';
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    special.lastIndex = i;
    const next = special.exec(text);
    const at = next ? next.index : text.length;
    field += text.slice(i, at);
    if (!next) break;
    const ch = next[0];
    i = at + 1;
    if (ch === ',') record.push(field), (field = '');
    else if (ch === '\n') record.push(field), records.push(record), (record = []), (field = '');
    else if (field !== '') field += '"';
    else {
      // A quoted field: up to the quote that is not doubled (or the end of the text).
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote === -1) {
          field += text.slice(i);
          i = text.length;
          break;
        }
        field += text.slice(i, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
    }
  }
  if (field !== '' || record.length) record.push(field), records.push(record);
  return records;
}
