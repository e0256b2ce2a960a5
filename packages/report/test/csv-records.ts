/** The tests' reading of the CSV reporters' output, as a spreadsheet reads it. */

/** RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') record.push(field), (field = '');
    else if (ch === '\n') record.push(field), records.push(record), (record = []), (field = '');
    else field += ch;
  }
  if (field !== '' || record.length) record.push(field), records.push(record);
  return records;
}
