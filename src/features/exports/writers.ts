import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import type { Cell } from '../moduletypes/contract.js';

/** Rows of an export, a batch at a time, headings first. */
type RowBatches = AsyncIterable<Cell[][]>;

/** Where a reader may start a new cell: the start, any separator a spreadsheet may split on (`,`, `;`, tab) or a line break. */
const CELL_STARTS = /(^|[,;\t\r\n])([ ]*)(?=[=+\-@])/g;

/**
 * A CSV cell (RFC 4180) that no reader runs as a formula (CSV injection, issue 21, finding 7):
 * text a spreadsheet would read as a formula gets an apostrophe, at the start and after every
 * separator or line break, since a reader that splits on `;` (Excel in German) or ignores quotes
 * starts cells there too; every cell with a separator, quote or line break is quoted.
 */
function csvCell(value: Cell): string {
  if (typeof value === 'number') return String(value);
  const marked = value.replace(CELL_STARTS, "$1$2'");
  // A leading tab or carriage return starts a formula in some readers too (OWASP).
  const safe = /^[\t\r]/.test(marked) ? `'${marked}` : marked;
  return /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV in UTF-8 with a byte order mark (so spreadsheets read umlauts), pulled by the reader: one batch in memory. */
export function csvStream(rows: RowBatches): Readable {
  async function* lines() {
    yield '\uFEFF';
    for await (const batch of rows) yield batch.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
  }
  return Readable.from(lines(), { objectMode: false });
}

/**
 * An xlsx workbook of one sheet, written by exceljs's streaming WorkbookWriter: each row is
 * committed (written out and dropped) at once, and the next batch is read only when the reader has
 * taken what was written, so memory stays at about a batch however large the module is.
 */
export function xlsxStream(sheetName: string, rows: RowBatches): Readable {
  const out = new PassThrough();
  (async () => {
    // exceljs (≈ 25 MB resident) is loaded with the first export, not at the start of every worker.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(sheetName);
    for await (const batch of rows) {
      for (const row of batch) sheet.addRow(row).commit();
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
