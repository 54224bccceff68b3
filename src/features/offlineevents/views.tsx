import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { Breadcrumbs, RichText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { Layout } from '../../web/layout.js';
import { projectPath } from '../../core/urls.js';
import type { FoundOfflineEvent } from './queries.js';

interface OfflineEventPageData {
  orgSlug: string;
  event: FoundOfflineEvent;
  /** The project's dashboard list of events, for those who may change them. */
  manage: string | null;
}

/** The event's page (a+ `offlineevent_detail`): type, title, date and time, description, document; a way back to its project. */
export function OfflineEventPage({ page, data }: { page: PageContext; data: OfflineEventPageData }) {
  const { lang, timeZone } = page;
  const { event, orgSlug } = data;
  const project = projectPath(orgSlug, event.projectSlug);
  return (
    <Layout page={page} title={`${event.name} — ${event.projectName}`}>
      <Breadcrumbs
        lang={lang}
        items={[
          { href: `/${orgSlug}/`, label: event.organisationName },
          { href: project, label: event.projectName },
        ]}
      />
      <article class="offline-event" aria-labelledby="event-heading">
        <p class="badge">{event.eventType}</p>
        <h1 id="event-heading">{event.name}</h1>
        <p>
          <time datetime={event.date.toISOString()}>{formatDateTime(event.date, lang, timeZone)}</time>
        </p>
        <RichText html={event.description} />
        {event.document && (
          <p>
            <a href={`/media/${event.document}`} download>
              {t(lang, 'Download the document (PDF)')}
            </a>
          </p>
        )}
      </article>
      <p>
        <a href={project}>{t(lang, 'Back to the project')}</a>
        {data.manage && (
          <>
            {' · '}
            <a href={data.manage}>{t(lang, 'Edit events')}</a>
          </>
        )}
      </p>
    </Layout>
  );
}
