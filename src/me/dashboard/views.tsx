import type { ComponentChildren } from 'preact';
import { formatDate, formatDateTime } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { PageContext } from '../../web/context.js';
import { interpolate } from '../../web/interpolate.js';
import { Layout } from '../../web/layout.js';
import { avatarUrl } from '../../core/users/avatars.js';
import type { TiledProject } from '../../core/projects/tiles.js';
import { profilePath } from '../../core/urls.js';
import { ProjectTile } from '../../web/project-tile.js';
import { NOTIFICATIONS_PATH } from '../../web/paths.js';
import type { Activity } from './view-model.js';

type UserPage = PageContext & { user: AuthUser };

export interface Sidebar {
  initiatorOf: { id: number; name: string; slug: string }[];
  organisations: { id: number; name: string; slug: string }[];
  /** view_moderation_dashboard: the user moderates a project (the Moderation tab shows). */
  moderator: boolean;
}

/** The dashboard's tabs. */
type Tab = 'overview' | 'notifications' | 'moderation';

export function DashboardFrame({ page, sidebar, title, tab, children, scripts }: { page: UserPage; sidebar: Sidebar; title: string; tab: Tab; children: ComponentChildren; scripts?: string[] }) {
  const { lang, user } = page;
  return (
    <Layout page={page} title={title} scripts={scripts}>
      <div class="dashboard">
        <aside class="sidebar" aria-label={t(lang, 'Your profile')}>
          <img class="avatar" src={avatarUrl(user)} alt="" width={170} height={170} />
          <p>
            <a href={profilePath(user.username)}>
              <strong>{user.username}</strong>
            </a>
          </p>
          <p>
            {t(lang, 'Since')} {formatDate(user.dateJoined, lang, page.timeZone)}
          </p>
          <p>
            <a href="/account/">{t(lang, 'Account Settings')}</a>
          </p>
          {sidebar.initiatorOf.length > 0 && (
            <>
              <h2>{t(lang, 'Initiator Organisations')}</h2>
              <ul>
                {sidebar.initiatorOf.map((o) => (
                  <li>
                    <a href={`/${o.slug}/dashboard/projects/`}>{o.name}</a>
                  </li>
                ))}
              </ul>
            </>
          )}
          <h2>{t(lang, 'Organisations')}</h2>
          {sidebar.organisations.length ? (
            <ul>
              {sidebar.organisations.map((o) => (
                <li>
                  <a href={`/${o.slug}/`}>{o.name}</a>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t(lang, 'You do not follow projects of any organisation yet.')}</p>
          )}
        </aside>
        <div>
          <nav aria-label={t(lang, 'Dashboard')}>
            <ul class="tabs">
              <li>
                <a href="/userdashboard/overview/" aria-current={tab === 'overview' ? 'page' : undefined}>
                  {t(lang, 'Overview')}
                </a>
              </li>
              <li>
                <a href={NOTIFICATIONS_PATH} aria-current={tab === 'notifications' ? 'page' : undefined}>
                  {t(lang, 'Notifications')}
                </a>
              </li>
              {sidebar.moderator && (
                <li>
                  <a href="/userdashboard/moderation/" aria-current={tab === 'moderation' ? 'page' : undefined}>
                    {t(lang, 'Moderation')}
                  </a>
                </li>
              )}
            </ul>
          </nav>
          {children}
        </div>
      </div>
    </Layout>
  );
}


/** Small inline icons (no icon font): a light bulb for comments on contributions, a speech bubble for replies, "!" for feedback. */
const ICON_PATHS: Record<Activity['kind'], string> = {
  comment: 'M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2zm-3 17h6v2H9z',
  reply: 'M4 4h16v11H8l-4 4z',
  feedback_added: 'M11 4h2v11h-2zm0 13h2v2h-2z',
  feedback_updated: 'M11 4h2v11h-2zm0 13h2v2h-2z',
  result_linked: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  result_status: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  item_feedback: 'M11 4h2v11h-2zm0 13h2v2h-2z',
};

function ActivityIcon({ kind }: { kind: Activity['kind'] }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
      <path d={ICON_PATHS[kind]} fill="currentColor" />
    </svg>
  );
}

function activitySentence(lang: Lang, a: Activity) {
  const actor = a.actor ? <a href={a.actor.url}>{a.actor.name}</a> : t(lang, 'unknown user');
  const link = (href: string, text: string) => <a href={href}>{text}</a>;
  switch (a.kind) {
    case 'comment':
      return interpolate(t(lang, '%(actor)s left a %(comment)s on your %(contribution)s'), {
        actor,
        comment: link(a.commentUrl, t(lang, 'comment')),
        contribution: link(a.targetUrl, t(lang, 'contribution')),
      });
    case 'reply':
      return interpolate(t(lang, '%(actor)s left a %(reply)s to your %(comment)s'), {
        actor,
        reply: link(a.commentUrl, t(lang, 'reply')),
        comment: link(a.targetUrl, t(lang, 'comment')),
      });
    case 'feedback_added':
      return interpolate(t(lang, 'Your %(comment)s received feedback from moderation'), { comment: link(a.commentUrl, t(lang, 'comment')) });
    case 'feedback_updated':
      return interpolate(t(lang, 'Moderation updated feedback on your %(comment)s'), { comment: link(a.commentUrl, t(lang, 'comment')) });
    case 'result_linked':
      return interpolate(t(lang, 'Your contribution became part of the result %(result)s'), { result: link(a.targetUrl, a.result?.title ?? '') });
    case 'result_status':
      return interpolate(t(lang, 'The result %(result)s of your contribution is now "%(status)s" (%(progress)s %)'), {
        result: link(a.targetUrl, a.result?.title ?? ''),
        status: a.result?.status ? t(lang, a.result.status) : '',
        progress: a.result?.progress ?? '',
      });
    case 'item_feedback':
      return interpolate(t(lang, 'Your contribution %(item)s received official feedback from moderation'), { item: link(a.item?.url ?? '/', a.item?.name || t(lang, 'contribution')) });
  }
}

function ActivityItem({ page, activity }: { page: PageContext; activity: Activity }) {
  const { lang, timeZone } = page;
  return (
    <li>
      <ActivityIcon kind={activity.kind} />
      <div>
        <p>
          {activitySentence(lang, activity)}
          {activity.project && <> {interpolate(t(lang, 'on %(project)s'), { project: <a href={activity.project.url}>{activity.project.name}</a> })}</>}
        </p>
        {activity.commentText && activity.kind !== 'feedback_added' && activity.kind !== 'feedback_updated' && activity.kind !== 'item_feedback' && <blockquote>{activity.commentText}</blockquote>}
        <time class="relative" dateTime={activity.timestamp.toISOString()} title={formatDateTime(activity.timestamp, lang, timeZone)}>
          {formatDate(activity.timestamp, lang, timeZone)}
        </time>
      </div>
    </li>
  );
}

function Feed({ page, activities }: { page: PageContext; activities: Activity[] }) {
  if (!activities.length) return <p>{t(page.lang, 'No activity yet. ')}</p>;
  return (
    <ul class="feed">
      {activities.map((activity) => (
        <ActivityItem page={page} activity={activity} />
      ))}
    </ul>
  );
}

interface OverviewData {
  sidebar: Sidebar;
  carousel: TiledProject[];
  followingCount: number;
  /** Projects that are not public in which the user takes part (participant or organisation member). */
  participated: TiledProject[];
  activities: Activity[];
  moreActivities: boolean;
  now: Date;
}

export function OverviewPage({ page, data }: { page: UserPage; data: OverviewData }) {
  const { lang } = page;
  return (
    <DashboardFrame page={page} sidebar={data.sidebar} title={t(lang, 'Overview')} tab="overview">
      <h1 class="visually-hidden">{t(lang, 'Overview')}</h1>
      <section aria-labelledby="following-heading">
        <div class="section-head">
          <h2 id="following-heading">{t(lang, 'Following')}</h2>
          {data.followingCount > 2 && <a href="/userdashboard/overview/following/">{t(lang, 'View more')}</a>}
        </div>
        {data.carousel.length ? (
          <ul class="tiles">
            {data.carousel.map((project) => (
              <ProjectTile page={page} project={project} now={data.now} />
            ))}
          </ul>
        ) : (
          <p>{t(lang, 'You are not active in any projects yet.')}</p>
        )}
      </section>
      {data.participated.length > 0 && (
        <section aria-labelledby="participated-heading">
          <h2 id="participated-heading">{t(lang, 'Your projects that are not public')}</h2>
          <ul class="tiles">
            {data.participated.map((project) => (
              <ProjectTile page={page} project={project} now={data.now} />
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="feed-heading">
        <div class="section-head">
          <h2 id="feed-heading">{t(lang, 'My Feed')}</h2>
          {data.moreActivities && <a href="/userdashboard/overview/activities/">{t(lang, 'View more')}</a>}
        </div>
        <Feed page={page} activities={data.activities} />
      </section>
    </DashboardFrame>
  );
}

export function ActivitiesPage({ page, sidebar, activities, olderUrl, paged }: { page: UserPage; sidebar: Sidebar; activities: Activity[]; olderUrl: string | null; paged: boolean }) {
  const { lang } = page;
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={t(lang, 'My Feed')} tab="overview">
      <p>
        <a href="/userdashboard/overview/">{t(lang, 'Back to overview')}</a>
      </p>
      <h1>{t(lang, 'My Feed')}</h1>
      <Feed page={page} activities={activities} />
      {(olderUrl || paged) && (
        <nav class="pager" aria-label={t(lang, 'Pages')}>
          {paged && <a href="/userdashboard/overview/activities/">{t(lang, 'Newest activities')}</a>}
          {olderUrl && <a href={olderUrl}>{t(lang, 'Older activities')}</a>}
        </nav>
      )}
    </DashboardFrame>
  );
}

export function FollowingPage({ page, sidebar, projects, now }: { page: UserPage; sidebar: Sidebar; projects: TiledProject[]; now: Date }) {
  const { lang } = page;
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={t(lang, 'Following')} tab="overview">
      <p>
        <a href="/userdashboard/overview/">{t(lang, 'Back to overview')}</a>
      </p>
      <h1>{t(lang, 'Following')}</h1>
      {projects.length ? (
        <ul class="tiles">
          {projects.map((project) => (
            <ProjectTile page={page} project={project} now={now} />
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'You are not yet following any projects.')}</p>
      )}
    </DashboardFrame>
  );
}
