import { remarkPath, type ProjectRemark } from '../../features/moderatorremarks/queries.js';
import { ProjectRemarks } from '../../features/moderatorremarks/views.js';
import { withNext } from '../../http/urls.js';
import { t, tn } from '../../i18n/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField } from '../../web/layout.js';
import type { PageLinks } from '../../http/pagination.js';
import { Pager } from '../../web/pager.js';
import type { QueueComment } from '../../features/moderation/view-model.js';
import { GuestBadge } from '../../web/guest-badge.js';
import type { ReportedObject, ReportRow } from '../../features/reports/queries.js';
import type { Text } from '../../core/modules/registry.js';
import { moderationDetailPath, moduleExportPath, projectPath } from '../../core/urls.js';
import { commentActionPath } from '../../features/threads/views.js';
import { PlainText } from '../../web/components.js';
import { DashboardFrame, type Sidebar } from './views.js';
import type { ModeratedProject } from './queries.js';
import { RichText } from '../../web/rich-text.js';

type UserPage = PageContext & { user: AuthUser };


export function ModerationPage({ page, sidebar, projects }: { page: UserPage; sidebar: Sidebar; projects: ModeratedProject[] }) {
  const { lang } = page;
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={t(lang, 'Moderation')} tab="moderation">
      <h1>{t(lang, 'Moderation')}</h1>
      <ul class="moderation-projects">
        {projects.map((project) => (
          <li>
            <h2>
              <a href={moderationDetailPath(project.slug)}>{project.name}</a>
            </h2>
            <p>{project.organisationName}</p>
            <p>
              {tn(lang, '%(count)s unread reported comment', '%(count)s unread reported comments', project.unreadReported)} · {tn(lang, '%(count)s unread comment', '%(count)s unread comments', project.unread)}
              {project.reportedKinds.map((k) => (
                <> · {k.count} {k.names && tn(lang, k.names.one[lang], k.names.many[lang], k.count)}</>
              ))}
            </p>
          </li>
        ))}
      </ul>
    </DashboardFrame>
  );
}

export type ModerationFilterName = 'all' | 'unread' | 'reported' | 'blocked';
export const MODERATION_FILTERS: [ModerationFilterName, string][] = [
  ['all', 'All'],
  ['unread', 'Unread'],
  ['reported', 'Reported'],
  ['blocked', 'Blocked'],
];

/** The queue at a filter and page ("all" and page 1 leave their parameter out). */
export function queuePath(slug: string, place: QueuePlace): string {
  const query = new URLSearchParams();
  if (place.filter !== 'all') query.set('filter', place.filter);
  if (place.page > 1) query.set('page', String(place.page));
  const search = query.toString();
  return `${moderationDetailPath(slug)}${search ? `?${search}` : ''}`;
}

/** Where the queue was (filter and page), so that an action comes back to it (issue 22.5). */
export interface QueuePlace {
  filter: ModerationFilterName;
  page: number;
}

function PlaceFields({ place }: { place: QueuePlace }) {
  return (
    <>
      <input type="hidden" name="filter" value={place.filter} />
      <input type="hidden" name="page" value={String(place.page)} />
    </>
  );
}

function ActionButton({ page, action, label, commentId, slug, place }: { page: PageContext; action: string; label: string; commentId: number; slug: string; place: QueuePlace }) {
  return (
    <form method="post" action={`${moderationDetailPath(slug)}comments/${commentId}/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="action" value={action} />
      <PlaceFields place={place} />
      <button type="submit">{label}</button>
    </form>
  );
}

/** "Mark reports as handled" for a comment or a reported object of any kind (issue 22.4). */
function HandledButton({ page, kind, id, slug, place }: { page: PageContext; kind: string; id: number; slug: string; place: QueuePlace }) {
  return (
    <form method="post" action={`${moderationDetailPath(slug)}reports/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={String(id)} />
      <PlaceFields place={place} />
      <button type="submit">{t(page.lang, 'Mark reports as handled')}</button>
    </form>
  );
}

/** Each report with its reporter and reason; handled ones say so. */
function ReportList({ lang, reports }: { lang: PageContext['lang']; reports: ReportRow[] }) {
  if (!reports.length) return null;
  return (
    <ul class="reports" aria-label={t(lang, 'Reports')}>
      {reports.map((report) => (
        <li>
          <strong>{report.username}</strong>: <span class="pre-line">{report.description}</span>
          {report.handled && <> <span class="badge">{t(lang, 'handled')}</span></>}
        </li>
      ))}
    </ul>
  );
}

function ReportedObjectItem({ page, item, slug, place }: { page: PageContext; item: ReportedObject; slug: string; place: QueuePlace }) {
  const { lang } = page;
  const name = item.name || `${item.kind} ${item.id}`;
  return (
    <li id={`${item.kind}-${item.id}`} class="moderation-comment">
      <p>
        <strong>{item.path ? <a href={item.path}>{name}</a> : name}</strong>
      </p>
      <p>{tn(lang, '%(count)s report', '%(count)s reports', item.reports.filter((r) => !r.handled).length)}</p>
      <ReportList lang={lang} reports={item.reports} />
      <div class="actions">
        {item.moderatePath && (
          <a class="btn btn-secondary" href={item.moderatePath}>
            {t(lang, 'Give feedback')}
          </a>
        )}
        <HandledButton page={page} kind={item.kind} id={item.id} slug={slug} place={place} />
      </div>
    </li>
  );
}

/** 'reported ideas' as a heading: 'Reported ideas'. */
const headingOf = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The reported objects of one kind, with what the queue calls them. */
export interface ReportedGroup {
  kind: string;
  names: { one: Text; many: Text };
  items: ReportedObject[];
}

function ModerationItem({ page, comment, slug, place }: { page: PageContext; comment: QueueComment; slug: string; place: QueuePlace }) {
  const { lang } = page;
  const button = (action: string, label: string) => <ActionButton page={page} action={action} label={t(lang, label)} commentId={comment.id} slug={slug} place={place} />;
  return (
    <li id={`comment-${comment.id}`} class="moderation-comment">
      <p class="field check">
        <input type="checkbox" id={`select-${comment.id}`} name="ids" value={String(comment.id)} form="bulk-form" />
        <label for={`select-${comment.id}`}>{t(lang, 'Select comment by %(name)s', { name: comment.author })}</label>
      </p>
      <p>
        <strong>{comment.author}</strong> {comment.byGuest && <GuestBadge lang={lang} />} <span>{comment.lastEdit}</span>{' '}
        {comment.isUnread && <span class="badge">{t(lang, 'unread')}</span>} {comment.isBlocked && <span class="badge">{t(lang, 'blocked')}</span>}{' '}
        {comment.isModeratorMarked && <span class="badge">{t(lang, 'highlighted')}</span>}
      </p>
      {comment.isGone ? <p class="comment-hidden">{t(lang, 'Deleted')}</p> : <PlainText class="comment-text" text={comment.text} />}
      <p>{tn(lang, '%(count)s report', '%(count)s reports', comment.reportCount)}</p>
      <ReportList lang={lang} reports={comment.reports} />
      {comment.feedback !== null && (
        <div class="feedback">
          <p>
            <strong>{t(lang, 'Feedback from moderation')}:</strong>
          </p>
          <RichText html={comment.feedback} />
        </div>
      )}
      {comment.path && (
        <p>
          {comment.object && <>{t(lang, 'On:')} <a href={comment.path.split('?')[0]}>{comment.object}</a> · </>}
          <a href={`${comment.path}#comment-${comment.id}`}>{t(lang, 'View in discussion')}</a>
        </p>
      )}
      <div class="actions">
        {comment.isUnread ? button('read', 'Mark as read') : button('unread', 'Mark as unread')}
        {!comment.isGone && (comment.isBlocked ? button('unblock', 'Unblock') : button('block', 'Block'))}
        {!comment.isGone && (comment.isModeratorMarked ? button('unmark', 'Remove highlight') : button('mark', 'Highlight'))}
        {comment.feedback !== null && (
          <form method="post" action={commentActionPath(comment.id, 'feedback/delete')} class="inline-form">
            <CsrfField page={page} />
            <input type="hidden" name="next" value={`${queuePath(slug, place)}#comment-${comment.id}`} />
            <button type="submit">{t(lang, 'Delete feedback')}</button>
          </form>
        )}
        {comment.reportCount > 0 && <HandledButton page={page} kind="comment" id={comment.id} slug={slug} place={place} />}
      </div>
    </li>
  );
}

interface ModerationDetailData {
  project: { name: string; slug: string; organisationSlug: string };
  /** The modules whose export this user may open (`mayExportModule`, §B16). */
  exports: { name: string; slug: string }[];
  comments: QueueComment[];
  pager: PageLinks;
  filter: ModerationFilterName;
  filters: [ModerationFilterName, string][];
  /** The project's objects of every reportable kind with open reports, a group per kind, shown with the "All" and "Reported" filters (issue 22.4). */
  reported: ReportedGroup[];
  place: QueuePlace;
  /** The queue's live stream and the position the page was rendered at. */
  live: { stream: string; last: string };
  /** Whether the user's last action in this queue can be undone. */
  undo: boolean;
  /** The project's items with a moderator remark (features/moderatorremarks), for its moderators and initiators. */
  remarks: ProjectRemark[];
}

/** Mark read, block or unblock the selected comments at once (the checkboxes of the list belong to this form). */
function BulkForm({ page, slug, place }: { page: PageContext; slug: string; place: QueuePlace }) {
  const { lang } = page;
  return (
    <form id="bulk-form" method="post" action={`${moderationDetailPath(slug)}bulk/`} class="filter-bar" aria-label={t(lang, 'Selected comments')}>
      <CsrfField page={page} />
      <PlaceFields place={place} />
      <label for="bulk-action">{t(lang, 'With the selected comments')}</label>{' '}
      <select id="bulk-action" name="action">
        <option value="read">{t(lang, 'Mark as read')}</option>
        <option value="unread">{t(lang, 'Mark as unread')}</option>
        <option value="block">{t(lang, 'Block')}</option>
        <option value="unblock">{t(lang, 'Unblock')}</option>
      </select>{' '}
      <button type="submit">{t(lang, 'Apply')}</button>
    </form>
  );
}

export function ModerationDetailPage({ page, sidebar, data }: { page: UserPage; sidebar: Sidebar; data: ModerationDetailData }) {
  const { lang } = page;
  const { project } = data;
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={`${t(lang, 'Moderation')}: ${project.name}`} tab="moderation" scripts={['/static/live.js']}>
      <p>
        <a href="/userdashboard/moderation/">{t(lang, 'Back to moderation')}</a>
      </p>
      <h1>{project.name}</h1>
      <p>
        <a href={projectPath(project.organisationSlug, project.slug)}>{t(lang, 'Visit the project')}</a>
      </p>
      {data.exports.length > 0 && (
        <section aria-labelledby="exports-heading">
          <h2 id="exports-heading">{t(lang, 'Export')}</h2>
          <ul>
            {data.exports.map((m) => (
              <li>
                <a href={moduleExportPath(project.organisationSlug, m.slug)}>{t(lang, 'Export the contributions of %(module)s', { module: m.name })}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div data-live-stream={data.live.stream} data-live-last={String(data.live.last)}>
      <div data-live-region="">
      {data.reported.map((group) => (
        <section aria-labelledby={`reported-${group.kind}s-heading`}>
          <h2 id={`reported-${group.kind}s-heading`}>{headingOf(group.names.many[lang])}</h2>
          <ul class="moderation-comments">
            {group.items.map((item) => (
              <ReportedObjectItem page={page} item={item} slug={project.slug} place={data.place} />
            ))}
          </ul>
        </section>
      ))}
      <ProjectRemarks page={page} remarks={data.remarks} editPath={(r) => withNext(remarkPath(r.kind, r.pk), moderationDetailPath(project.slug))} />
      <h2>{t(lang, 'Comments')}</h2>
      <BulkForm page={page} slug={project.slug} place={data.place} />
      {data.undo && (
        <form method="post" action={`${moderationDetailPath(project.slug)}undo/`} class="inline-form">
          <CsrfField page={page} />
          <PlaceFields place={data.place} />
          <button type="submit">{t(lang, 'Undo the last action')}</button>
        </form>
      )}
      <nav aria-label={t(lang, 'Filter comments')}>
        <ul class="tabs">
          {data.filters.map(([name, label]) => (
            <li>
              <a href={`${moderationDetailPath(project.slug)}${name === 'all' ? '' : `?filter=${name}`}`} aria-current={data.filter === name ? 'page' : undefined}>
                {t(lang, label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {data.comments.length ? (
        <ul class="moderation-comments">
          {data.comments.map((comment) => (
            <ModerationItem page={page} comment={comment} slug={project.slug} place={data.place} />
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'No comments yet.')}</p>
      )}
      <Pager lang={lang} pager={data.pager} />
      </div>
      </div>
    </DashboardFrame>
  );
}
