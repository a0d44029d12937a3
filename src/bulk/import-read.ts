import { createReadStream, type ReadStream } from 'node:fs';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

export type ImportFormat = 'csv' | 'jsonl';

/** One record of an import file: its values under their column names, or why it cannot be read. */
export type ImportRecord =
  | { readonly line: number; readonly names: readonly string[]; readonly values: readonly unknown[] }
  | { readonly line: number; readonly error: string };

/** Reading stopped: the rest of the file cannot be trusted (CSV quoting broken at `line`). */
export class UnreadableFile extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export function importFormatOf(file: string): ImportFormat | undefined {
  const ext = extname(file).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.jsonl' || ext === '.ndjson' ? 'jsonl' : undefined;
}

const newlines = (values: readonly string[]): number => {
  let n = 0;
  for (const v of values) for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) n++;
  return n;
};

/**
 * A CSV file's records (RFC 4180; a BOM is skipped; the first line names the columns). Line numbers
 * are counted here (csv-parse's per-record info doubles its cost): a record spans one line plus the
 * line breaks inside its quoted fields. A record with the wrong number of fields is an error at its
 * line; broken quoting makes the rest of the file unreadable.
 */
async function* csvRecords(stream: ReadStream): AsyncGenerator<ImportRecord> {
  const parser = stream.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: false }));
  let names: string[] | undefined;
  let line = 1;
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      const start = line;
      line += 1 + newlines(values);
      if (values.length === 1 && values[0] === '') continue; // a blank line
      if (!names) {
        names = values;
        continue;
      }
      if (values.length !== names.length) yield { line: start, error: `${values.length} fields where the header has ${names.length}` };
      else yield { line: start, names, values };
    }
  } catch (err) {
    const at = (err as { lines?: number }).lines ?? line;
    throw new UnreadableFile(at, `line ${at}: not valid CSV from here on (${(err as Error).message})`);
  }
}

/** A JSON Lines file's records: one JSON object per line; blank lines are skipped. */
async function* jsonlRecords(stream: ReadStream): AsyncGenerator<ImportRecord> {
  const lines = createInterface({ input: stream.setEncoding('utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { line, error: `not JSON: ${(err as Error).message}` };
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) yield { line, error: 'not a JSON object' };
    else yield { line, names: Object.keys(value), values: Object.values(value) };
  }
}

/** An import file's records in file order, and how far into the file reading has got. */
export function readImportFile(file: string, format: ImportFormat): { records: AsyncGenerator<ImportRecord>; bytesRead(): number } {
  const stream = createReadStream(file, { highWaterMark: 256 * 1024 });
  return { records: format === 'csv' ? csvRecords(stream) : jsonlRecords(stream), bytesRead: () => stream.bytesRead };
}

/** The header of a CSV file (its first non-blank record), or undefined for an empty file. */
export async function csvHeader(file: string): Promise<string[] | undefined> {
  const parser = createReadStream(file).pipe(parse({ bom: true, relax_column_count: true, to_line: 1000 }));
  try {
    for await (const values of parser as AsyncIterable<string[]>) if (!(values.length === 1 && values[0] === '')) return values;
  } catch {
    return undefined;
  } finally {
    parser.destroy();
  }
  return undefined;
}
