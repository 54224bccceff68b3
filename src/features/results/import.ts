import type { FieldErrors } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import { escapeHtml } from '../../text/html.js';
import { CONTENT_KINDS, type ContentKind } from '../../db/schema/index.js';
import { RESULT_COLUMNS } from './export.js';
import type { StatusRow } from './queries.js';
import { nestedInThemselves, readResultForm, type ResultInput } from './rules.js';

/**
 * The import of results (Decidim's accountability import): a CSV or xlsx file with the export's
 * columns (headings in English or German); each row is checked, and the preview shows every row
 * with its errors before anything is written. A row with an `ID` of the project's results changes
 * it; a row without one adds a result.
 */

/** The most rows one file may hold. */
export const IMPORT_MAX_ROWS = 500;

export type ImportCells = Partial<Record<(typeof RESULT_COLUMNS)[number], string>>;

/** One checked row: its number in the file, its cells, and what it becomes (or why not). */
export interface CheckedRow {
  line: number;
  cells: ImportCells;
  errors: string[];
  input: (ResultInput & { id: number | null; links: { kind: ContentKind; pk: number }[] }) | null;
}

/** A cell as text: dates as YYYY-MM-DD, numbers as typed. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object' && 'text' in value) return String((value as { text: unknown }).text);
  if (typeof value === 'object' && 'result' in value) return text((value as { result: unknown }).result);
  return String(value).trim();
}

/** CSV (RFC 4180, comma or semicolon as a spreadsheet in German writes it) into rows of cells. */
export function parseCsv(source: string): string[][] {
  const body = source.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const separator = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows.filter((r) => r.some((c) => c.trim()));
}

/** The first sheet of an xlsx workbook into rows of cells (exceljs, loaded when an import comes). */
export async function parseXlsx(data: Buffer): Promise<string[][]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: string[][] = [];
  sheet?.eachRow({ includeEmpty: false }, (row) => {
    const values = row.values as unknown[];
    rows.push(values.slice(1).map(text));
  });
  return rows;
}

/** Whether a file is an xlsx workbook (a zip archive), whatever its name says. */
export const isXlsx = (data: Buffer) => data.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004';

/** The rows as cells under the known columns: a heading in English or German names its column; unknown columns are left out. */
export function toCells(rows: string[][]): { cells: ImportCells[]; error: string | null } {
  const [headings, ...data] = rows;
  if (!headings) return { cells: [], error: 'The file is empty.' };
  const columnOf = (heading: string) => RESULT_COLUMNS.find((column) => [column, t('de', column)].some((name) => name.toLowerCase() === heading.trim().toLowerCase()));
  const columns = headings.map(columnOf);
  if (!columns.includes('Title')) return { cells: [], error: 'The file has no column "Title".' };
  if (data.length > IMPORT_MAX_ROWS) return { cells: [], error: 'The file has more than 500 rows.' };
  return {
    cells: data.map((row) => Object.fromEntries(columns.flatMap((column, i) => (column ? [[column, (row[i] ?? '').trim()]] : [])))),
    error: null,
  };
}

/** A status named in a cell: its name or its name in either language. */
const statusNamed = (statuses: StatusRow[], name: string) => statuses.find((s) => [s.name, t('en', s.name), t('de', s.name)].some((n) => n.toLowerCase() === name.toLowerCase()));

/**
 * Checks each row: the result form's rules, a known status, an ID and a parent among the project's
 * results (`tree`, none made part of itself by the file's parents), contributions as `kind:id`.
 * Whether the contributions lie in the project is asked by the caller (`contributions`, the ones that do).
 */
export function checkRows(cells: ImportCells[], context: { lang: Lang; statuses: StatusRow[]; tree: { id: number; parentId: number | null }[]; contributions: Set<string> }): CheckedRow[] {
  const rows = checkEachRow(cells, { ...context, resultIds: context.tree.map((r) => r.id) });
  // The parents after the import, the file's over the stored ones: a cycle would nest a result in itself.
  const parents = new Map(context.tree.map((r) => [r.id, r.parentId]));
  for (const row of rows) if (typeof row.input?.id === 'number') parents.set(row.input.id, row.input.parentId);
  const cyclic = nestedInThemselves(parents, parents.keys());
  const message = `${t(context.lang, 'Parent ID')}: ${t(context.lang, 'A result cannot be part of itself or of one of its parts.')}`;
  return rows.map((row) => (typeof row.input?.id === 'number' && cyclic.has(row.input.id) ? { ...row, errors: [...row.errors, message], input: null } : row));
}

function checkEachRow(cells: ImportCells[], context: { lang: Lang; statuses: StatusRow[]; resultIds: number[]; contributions: Set<string> }): CheckedRow[] {
  const say = (key: string, vars?: Record<string, string | number>) => t(context.lang, key, vars);
  return cells.map((row, index) => {
    const errors: string[] = [];
    const status = row.Status ? statusNamed(context.statuses, row.Status) : undefined;
    if (row.Status && !status) errors.push(say('Status: no status of the organisation is called "%(name)s".', { name: row.Status }));
    const id = row.ID ? Number(row.ID) : null;
    if (id !== null && !context.resultIds.includes(id)) errors.push(say('ID: the project has no result %(id)s.', { id: row.ID ?? '' }));
    const links = (row.Contributions ?? '').split(/[\s,]+/).filter(Boolean).map((link) => {
      const [kind, pk] = link.split(':');
      return { kind: kind as ContentKind, pk: Number(pk), text: link };
    });
    for (const link of links) if (!(CONTENT_KINDS as readonly string[]).includes(link.kind) || !context.contributions.has(`${link.kind}:${link.pk}`)) errors.push(say('Contributions: "%(link)s" is no contribution of the project.', { link: link.text }));
    const form = {
      title: row.Title ?? '',
      description: row.Description ? `<p>${escapeHtml(row.Description)}</p>` : '',
      category: row.Category ?? '',
      district: row.District ?? '',
      lat: row.Latitude ?? '',
      lng: row.Longitude ?? '',
      start_date: row.Start ?? '',
      end_date: row.End ?? '',
      budget_planned: row['Budget planned'] ?? '',
      budget_spent: row['Budget spent'] ?? '',
      status: status ? String(status.id) : '',
      progress: row.Progress ?? '',
      parent: row['Parent ID'] ?? '',
    };
    const read = readResultForm(form, { statusIds: context.statuses.map((s) => s.id), parentIds: context.resultIds.filter((r) => r !== id) }, say);
    errors.push(...fieldMessages(read.errors, context.lang));
    return { line: index + 2, cells: row, errors, input: read.input && !errors.length ? { ...read.input, id, links: links.map(({ kind, pk }) => ({ kind, pk })) } : null };
  });
}

/** The form's field errors as "Column: message". */
const FIELD_COLUMNS: Record<string, string> = { title: 'Title', description: 'Description', category: 'Category', district: 'District', lat: 'Latitude', lng: 'Longitude', start_date: 'Start', end_date: 'End', budget_planned: 'Budget planned', budget_spent: 'Budget spent', status: 'Status', progress: 'Progress', parent: 'Parent ID' };
const fieldMessages = (errors: FieldErrors, lang: Lang) => Object.entries(errors).flatMap(([name, messages]) => messages.map((message) => `${t(lang, FIELD_COLUMNS[name] ?? name)}: ${message}`));
