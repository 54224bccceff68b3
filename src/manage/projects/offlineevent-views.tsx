import type { FieldErrors } from '../../http/errors.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { Input, TextArea } from '../../web/controls.js';
import { CsrfField, FormErrors } from '../../web/layout.js';
import { projectComponentPath } from '../../web/paths.js';
import type { OfflineEventForm } from '../../features/offlineevents/rules.js';
import { OFFLINE_EVENT_LIMITS } from '../../features/offlineevents/rules.js';
import { offlineEventPath, type OfflineEventRow } from '../../features/offlineevents/queries.js';
import { type FrameData, ProjectFrame } from './views.js';

/** Where the project's events are managed: the list, and each event's pages under it. */
export const offlineEventsPath = (org: string, project: string) => projectComponentPath(org, project, 'offlineevents');

/** The dashboard's list of a project's events (a+ `offlineevent_list`): add, edit, delete, the public page, the export. */
export function OfflineEventListPage({ page, data, events }: { page: PageContext; data: FrameData; events: OfflineEventRow[] }) {
  const { lang, timeZone } = page;
  const base = offlineEventsPath(data.organisation.slug, data.project.slug);
  return (
    <ProjectFrame page={page} data={data} title={t(lang, 'Offline events')}>
      <p class="help">{t(lang, 'Offline events appear in the project timeline together with the participation modules. Followers of the project are reminded shortly before an event.')}</p>
      <p>
        <a class="btn" href={`${base}create/`}>
          {t(lang, 'Add event')}
        </a>
      </p>
      {events.length === 0 ? (
        <p>{t(lang, 'No events yet.')}</p>
      ) : (
        <>
          <DataTable headers={[t(lang, 'Title'), t(lang, 'Event type'), t(lang, 'Date'), t(lang, 'Actions')]}>
            {events.map((event) => (
              <tr>
                <td>
                  <a href={offlineEventPath(data.organisation.slug, event.slug)}>{event.name}</a>
                </td>
                <td>{event.eventType}</td>
                <td>{formatDateTime(event.date, lang, timeZone)}</td>
                <td>
                  <a href={`${base}${event.slug}/update/`} aria-label={`${t(lang, 'Edit')}: ${event.name}`}>
                    {t(lang, 'Edit')}
                  </a>{' '}
                  <a href={`${base}${event.slug}/delete/`} aria-label={`${t(lang, 'Delete')}: ${event.name}`}>
                    {t(lang, 'Delete')}
                  </a>
                </td>
              </tr>
            ))}
          </DataTable>
          <p>
            {t(lang, 'Export')}: <a href={`${base}export.xlsx`}>{t(lang, 'Events as a spreadsheet (xlsx)')}</a> · <a href={`${base}export.csv`}>{t(lang, 'Events as CSV')}</a>
          </p>
        </>
      )}
    </ProjectFrame>
  );
}

/** Adding or editing an event (a+ `offlineevent_create_form`, `…_update_form`): errors beside each field. */
export function OfflineEventFormPage(props: { page: PageContext; data: FrameData; title: string; action: string; values: OfflineEventForm; errors: FieldErrors; document: string | null }) {
  const { page, data, values, errors } = props;
  const { lang } = page;
  return (
    <ProjectFrame page={page} data={data} title={props.title}>
      <form method="post" action={props.action} class="dashboard-form" noValidate enctype="multipart/form-data">
        <CsrfField page={page} />
        <FormErrors errors={errors.non_field_errors} />
        <Input name="name" label={t(lang, 'Title')} value={values.name} maxLength={OFFLINE_EVENT_LIMITS.name.maxChars} required errors={errors.name} />
        <Input name="event_type" label={t(lang, 'Event type')} value={values.event_type} maxLength={OFFLINE_EVENT_LIMITS.event_type.maxChars} required errors={errors.event_type} help={t(lang, 'For example: citizens’ meeting, site visit, workshop.')} />
        <Input name="date" type="datetime-local" label={t(lang, 'Date and time')} value={values.date} required errors={errors.date} />
        <TextArea name="description" label={t(lang, 'Description')} value={values.description} rows={10} richText={lang} required errors={errors.description} />
        <fieldset>
          <legend>{t(lang, 'Document')}</legend>
          {props.document && (
            <p>
              <a href={`/media/${props.document}`}>{t(lang, 'The current document (PDF)')}</a>
            </p>
          )}
          <Input name="document" type="file" accept="application/pdf" label={props.document ? t(lang, 'Replace the document') : t(lang, 'Upload a document')} errors={errors.document} help={t(lang, 'Optional: a PDF of at most 5 MB, e.g. the invitation or the agenda.')} />
          {props.document && (
            <p>
              <label>
                <input type="checkbox" name="document_clear" value="on" /> {t(lang, 'Remove the document')}
              </label>
            </p>
          )}
        </fieldset>
        <button type="submit">{t(lang, 'Save')}</button> <a href={offlineEventsPath(data.organisation.slug, data.project.slug)}>{t(lang, 'Cancel')}</a>
      </form>
    </ProjectFrame>
  );
}

/** Deleting an event (a+ `offlineevent_confirm_delete`). */
export function OfflineEventDeletePage({ page, data, event, action }: { page: PageContext; data: FrameData; event: OfflineEventRow; action: string }) {
  const { lang } = page;
  return (
    <ProjectFrame page={page} data={data} title={t(lang, 'Delete event')}>
      <p>{t(lang, 'Do you really want to delete the event "%(name)s"?', { name: event.name })}</p>
      <PostButton page={page} action={action} label={t(lang, 'Delete')} />{' '}
      <a href={offlineEventsPath(data.organisation.slug, data.project.slug)}>{t(lang, 'Cancel')}</a>
    </ProjectFrame>
  );
}
