import type { FastifyReply } from 'fastify';
import { localParts } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { Cell, Sheet, SheetContext } from '../moduletypes/contract.js';
import { csvStream, xlsxStream } from './writers.js';

/** A column's heading: the module's own word for its categories or labels (a4 aliases), else the catalogue's in the context's language. */
function heading(column: string, c: SheetContext): string {
  if (column === 'Category' && c.aliases?.categoryAlias) return c.aliases.categoryAlias;
  if ((column === 'Label' || column === 'Labels') && c.aliases?.labelAlias) return c.aliases.labelAlias;
  return t(c.lang, column);
}

/** The headings, then every row, a batch at a time. */
export async function* sheetRows<R>(sheet: Sheet<R>, batches: AsyncIterable<R[]>, c: SheetContext): AsyncGenerator<Cell[][]> {
  yield [sheet.columns.map((column) => heading(column, c))];
  for await (const batch of batches) yield batch.map((row) => sheet.cells(row, c));
}

/** `<project-slug>_<file>_<YYYYMMDDTHHMMSS>.<ext>`, the moment in the platform's time zone. */
export function exportFileName(projectSlug: string, kind: string, now: Date, timeZone: string, ext: 'xlsx' | 'csv') {
  const p = localParts(now, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${projectSlug}_${kind}_${p.year}${two(p.month)}${two(p.day)}T${two(p.hour)}${two(p.minute)}${two(now.getUTCSeconds())}.${ext}`;
}

const CONTENT_TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv; charset=utf-8' } as const;

/** Sends one sheet as a download, xlsx or CSV: `<project>_<kind>_<moment>.<ext>`, private, never kept by a cache. */
export function sendSheet<R>(reply: FastifyReply, file: { ext: 'xlsx' | 'csv'; projectSlug: string; kind: string; timeZone: string; sheet: Sheet<R>; rows: R[]; context: SheetContext }): FastifyReply {
  const cells = sheetRows(file.sheet, (async function* () { yield file.rows; })(), file.context);
  return reply
    .header('content-type', CONTENT_TYPES[file.ext])
    .header('content-disposition', `attachment; filename="${exportFileName(file.projectSlug, file.kind, new Date(), file.timeZone, file.ext)}"`)
    .header('cache-control', 'private, no-store')
    .send(file.ext === 'xlsx' ? xlsxStream(t(file.context.lang, file.sheet.title), cells) : csvStream(cells));
}
