import { t, tn } from '../../i18n/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField } from '../../web/layout.js';
import type { PageLinks } from '../../http/pagination.js';
import { Pager } from '../../web/pager.js';
import type { serializeModerationComment } from '../../features/moderation/serialize.js';
import type { ReportRow } from '../../features/reports/queries.js';
import { moderationDetailPath, moduleExportPath, projectPath } from '../../core/urls.js';
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
            </p>
          </li>
        ))}
      </ul>
    </DashboardFrame>
  );
}

type ModerationComment = ReturnType<typeof serializeModerationComment> & { path: string; isGone: boolean; object: string; reports: ReportRow[] };

export type ModerationFilterName = 'all' | 'unread' | 'reported' | 'blocked';
export const MODERATION_FILTERS: [ModerationFilterName, string][] = [
  ['all', 'All'],
  ['unread', 'Unread'],
  ['reported', 'Reported'],
  ['blocked', 'Blocked'],
];

function ActionButton({ page, action, label, commentId, slug }: { page: PageContext; action: string; label: string; commentId: number; slug: string }) {
  return (
    <form method="post" action={`${moderationDetailPath(slug)}comments/${commentId}/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="action" value={action} />
      <button type="submit">{label}</button>
    </form>
  );
}

function ModerationItem({ page, comment, slug }: { page: PageContext; comment: ModerationComment; slug: string }) {
  const { lang } = page;
  const button = (action: string, label: string) => <ActionButton page={page} action={action} label={t(lang, label)} commentId={comment.pk} slug={slug} />;
  return (
    <li id={`comment-${comment.pk}`} class="moderation-comment">
      <p>
        <strong>{comment.user_name}</strong> <span>{comment.last_edit}</span>{' '}
        {comment.is_unread && <span class="badge">{t(lang, 'unread')}</span>} {comment.is_blocked && <span class="badge">{t(lang, 'blocked')}</span>}{' '}
        {comment.is_moderator_marked && <span class="badge">{t(lang, 'highlighted')}</span>}
      </p>
      {comment.isGone ? <p class="comment-hidden">{t(lang, 'Deleted')}</p> : <p class="comment-text">{comment.comment}</p>}
      <p>{tn(lang, '%(count)s report', '%(count)s reports', comment.num_reports)}</p>
      {comment.reports.length > 0 && (
        <ul class="reports" aria-label={t(lang, 'Reports')}>
          {comment.reports.map((report) => (
            <li>
              <strong>{report.username}</strong>: <span class="pre-line">{report.description}</span>
            </li>
          ))}
        </ul>
      )}
      {comment.moderator_feedback && (
        <div class="feedback">
          <p>
            <strong>{t(lang, 'Feedback from moderation')}:</strong>
          </p>
          <RichText html={comment.moderator_feedback.feedback_text} />
        </div>
      )}
      {comment.path && (
        <p>
          {comment.object && <>{t(lang, 'On:')} <a href={comment.path.split('?')[0]}>{comment.object}</a> · </>}
          <a href={`${comment.path}#comment-${comment.pk}`}>{t(lang, 'View in discussion')}</a>
        </p>
      )}
      <div class="actions">
        {comment.is_unread ? button('read', 'Mark as read') : button('unread', 'Mark as unread')}
        {!comment.isGone && (comment.is_blocked ? button('unblock', 'Unblock') : button('block', 'Block'))}
      </div>
    </li>
  );
}

export interface ModerationDetailData {
  project: { name: string; slug: string; organisationSlug: string };
  /** The modules whose export this user may open (`mayExportModule`, §B16). */
  exports: { name: string; slug: string }[];
  comments: ModerationComment[];
  pager: PageLinks;
  filter: ModerationFilterName;
  filters: [ModerationFilterName, string][];
}

export function ModerationDetailPage({ page, sidebar, data }: { page: UserPage; sidebar: Sidebar; data: ModerationDetailData }) {
  const { lang } = page;
  const { project } = data;
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={`${t(lang, 'Moderation')}: ${project.name}`} tab="moderation">
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
                <a href={moduleExportPath(project.organisationSlug, m.slug)}>{t(lang, 'Export the ideas and comments of %(module)s', { module: m.name })}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <h2>{t(lang, 'Comments')}</h2>
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
            <ModerationItem page={page} comment={comment} slug={project.slug} />
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'No comments yet.')}</p>
      )}
      <Pager lang={lang} pager={data.pager} />
    </DashboardFrame>
  );
}
