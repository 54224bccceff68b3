import { localParts } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { Cell, Sheet, SheetContext } from '../moduletypes/contract.js';

/** The headings (in the context's language), then every row, a batch at a time. */
export async function* sheetRows<R>(sheet: Sheet<R>, batches: AsyncIterable<R[]>, c: SheetContext): AsyncGenerator<Cell[][]> {
  yield [sheet.columns.map((column) => t(c.lang, column))];
  for await (const batch of batches) yield batch.map((row) => sheet.cells(row, c));
}

/** `<project-slug>_<file>_<YYYYMMDDTHHMMSS>.<ext>`, the moment in the platform's time zone. */
export function exportFileName(projectSlug: string, kind: string, now: Date, timeZone: string, ext: 'xlsx' | 'csv') {
  const p = localParts(now, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${projectSlug}_${kind}_${p.year}${two(p.month)}${two(p.day)}T${two(p.hour)}${two(p.minute)}${two(now.getUTCSeconds())}.${ext}`;
}
