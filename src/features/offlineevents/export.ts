import { formatIsoLocal } from '../../i18n/dates.js';
import { absoluteUrl } from '../../http/urls.js';
import { plainTextOf } from '../../text/html.js';
import type { Sheet } from '../moduletypes/contract.js';
import { offlineEventPath, type OfflineEventRow } from './queries.js';

/** A project's offline events as a sheet (the dashboard's export): link, title, type, date, description as text, document, creator, created. */
export const OFFLINE_EVENT_SHEET: Sheet<OfflineEventRow> = {
  title: 'Offline events',
  columns: ['ID', 'Link', 'Title', 'Event type', 'Date', 'Description', 'Document', 'Creator', 'Created'],
  cells: (event, c) => [
    event.id,
    absoluteUrl(c.baseUrl, offlineEventPath(c.orgSlug, event.slug)),
    event.name,
    event.eventType,
    formatIsoLocal(event.date, c.timeZone),
    plainTextOf(event.description),
    event.document ? absoluteUrl(c.baseUrl, `/media/${event.document}`) : '',
    event.creatorName ?? '',
    formatIsoLocal(event.created, c.timeZone),
  ],
};
