/** The ledger export's CSV, read back strictly in the tests that check its bytes. */

/**
 * RFC 4180, strictly: fields apart by commas, records ended by `\n`; a quoted field may hold
 * commas, newlines and doubled quotes. Anything else (a stray quote, a missing last newline)
 * throws, so the test sees a malformed body.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`a quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] !== '\n') throw new Error(`expected a comma or a newline at ${i}`);
    i++;
    records.push(record);
    record = [];
  }
  if (record.length) throw new Error('the last record has no newline');
  return records;
}
