/**
 * How tenant and client commands print their results: a table for people, JSON for scripts.
 * `--json` gives one JSON object per line (the format the CLI always had); `--table` an aligned
 * table; without either, a table when stdout is a terminal and JSON lines otherwise, so scripts
 * and pipes keep reading the JSON they always read.
 */
export interface OutputOptions {
  json?: boolean;
  table?: boolean;
}

export type OutputFormat = 'json' | 'table';

export function outputFormat(
  options: OutputOptions,
  stdoutIsTerminal = !!process.stdout.isTTY,
): OutputFormat {
  if (options.json && options.table) throw new Error('Use either --json or --table, not both.');
  if (options.json) return 'json';
  if (options.table) return 'table';
  return stdoutIsTerminal ? 'table' : 'json';
}

export type Cell = string | number | boolean | null | undefined | readonly string[] | Date;

/** Column title → how to read the cell from a row. */
export type Columns<Row> = ReadonlyArray<readonly [title: string, cell: (row: Row) => Cell]>;

function text(cell: Cell): string {
  if (cell === null || cell === undefined) return '-';
  if (cell instanceof Date) return cell.toISOString();
  if (Array.isArray(cell)) return cell.join(',');
  return String(cell);
}

/** An aligned table with a header row; `(none)` when there are no rows. */
export function renderTable<Row>(rows: readonly Row[], columns: Columns<Row>): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((row) => columns.map(([, read]) => text(read(row))));
  const widths = columns.map(([title], i) => Math.max(title.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([title]) => title.toUpperCase())), ...cells.map(line)].join('\n') + '\n';
}

/** Prints `json` (one object per row, one line each) or the table of `rows`. */
export function printRows<Row>(
  format: OutputFormat,
  rows: readonly Row[],
  json: (row: Row) => unknown,
  columns: Columns<Row>,
): void {
  if (format === 'json') {
    for (const row of rows) console.log(JSON.stringify(json(row)));
    return;
  }
  process.stdout.write(renderTable(rows, columns));
}
