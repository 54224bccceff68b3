import { absoluteUrl } from '../../http/urls.js';
import { t } from '../../i18n/index.js';
import { plainTextOf } from '../../text/html.js';
import type { Sheet } from '../moduletypes/contract.js';
import { type ExportRow, resultPath } from './queries.js';

/**
 * A project's results as a sheet (the results dashboard's export, CSV and xlsx). The import reads
 * the same columns (`import.ts`): `Progress` is the result's own (empty when it comes from its parts
 * or its status), `Progress shown` what the pages show, `Contributions` the linked ones as `kind:id`.
 */
export const RESULT_COLUMNS = ['ID', 'Link', 'Title', 'Description', 'Category', 'District', 'Latitude', 'Longitude', 'Start', 'End', 'Budget planned', 'Budget spent', 'Status', 'Progress', 'Progress shown', 'Parent ID', 'Contributions'] as const;

export const RESULT_SHEET: Sheet<ExportRow> = {
  title: 'Results',
  columns: [...RESULT_COLUMNS],
  cells: (r, c) => [
    r.id,
    absoluteUrl(c.baseUrl, resultPath(c.orgSlug, r.id)),
    r.title,
    plainTextOf(r.description),
    r.category,
    r.district,
    r.lat ?? '',
    r.lng ?? '',
    r.startDate ?? '',
    r.endDate ?? '',
    r.budgetPlanned ?? '',
    r.budgetSpent ?? '',
    r.statusName ? t(c.lang, r.statusName) : '',
    r.progress ?? '',
    r.effective,
    r.parentId ?? '',
    r.linked.join(' '),
  ],
};
