/**
 * CSV as offload tools and dailies systems export it: a header row naming the columns (after any
 * title lines), then a row a file or clip; comma, semicolon or tab between fields, any field quoted
 * (`"…"`, `""` for a quote) and then free to hold the separator and line breaks; in UTF-8 or, as
 * Silverstack writes it, UTF-16LE with a byte-order mark (text.ts reads the bytes). Parsed by
 * csv-parse, not split by hand.
 */
import { CsvError, parse } from 'csv-parse/sync'
import { AleFields, MAX_ALE_ROWS, MAX_COLUMNS, tooManyRows, type Table } from './ale'
import { isTransferReport } from './report'
import { UnreadableFile } from './text'

/** Lines looked through for the header: a report may open with its title and the day's facts. */
const HEADER_WITHIN = 20

/**
 * The CSV's header and rows, at most `rowsLeft` rows (the ALE rows' bound: one import reads that
 * many rows in all).
 */
export function readCsv(text: string, rowsLeft = MAX_ALE_ROWS): Table {
  const delimiter = delimiterOf(text)
  let records: Array<{ record: string[]; info: { lines: number } }>
  try {
    records = parse(text, {
      delimiter,
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // The header's place is not known yet: enough records for it and every row one import reads.
      to: rowsLeft + HEADER_WITHIN + 1,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>
  } catch (err) {
    if (err instanceof CsvError) throw new UnreadableFile(`not a well-formed CSV: ${err.message}`)
    throw err
  }
  const at = records.slice(0, HEADER_WITHIN).findIndex(({ record }) => isHeader(record))
  if (at < 0)
    throw new UnreadableFile(
      'a CSV with no column of file names, paths or hashes: export the clip list or the transfer report with its header',
    )
  const columns = records[at]!.record.map((c) => c.trim())
  const rows: Table['rows'] = []
  for (const { record, info } of records.slice(at + 1)) {
    if (record.length > MAX_COLUMNS) throw new UnreadableFile(`more than ${MAX_COLUMNS} columns`)
    if (record.every((cell) => !cell.trim())) continue
    if (rows.length === rowsLeft) throw new UnreadableFile(tooManyRows(rowsLeft))
    rows.push({ line: info.lines, cells: record })
  }
  return { columns, rows }
}

function isHeader(record: readonly string[]): boolean {
  if (record.length > MAX_COLUMNS) throw new UnreadableFile(`more than ${MAX_COLUMNS} columns`)
  const columns = record.map((c) => c.trim())
  return isTransferReport(columns) || new AleFields(columns).named
}

/**
 * The separator the opening lines use most, quoted text aside: comma, semicolon (as spreadsheets
 * in European locales write it) or tab.
 */
function delimiterOf(text: string): string {
  const opening = text.slice(0, 8192).replace(/"[^"]*"/g, '')
  const counts = [',', ';', '\t'].map((d) => [d, opening.split(d).length - 1] as const)
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0]
}
