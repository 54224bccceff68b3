import type { ComponentChildren } from 'preact';
import { formatDate, formatDateTime } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { cleanRichText } from '../../text/html.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FieldErrors, Layout } from '../../web/layout.js';
import { Pager, type PagerLinks } from '../../web/pager.js';
import { ProjectTile } from '../dashboard/pages.js';
import type { FollowedProject } from '../dashboard/queries.js';
import type { serializeComment } from '../comments/serialize.js';
import type { IdeaRow } from '../ideas/queries.js';
import { phaseIsActive } from '../modules/phases.js';
import { ideaPath, modulePath, profilePath, projectPath } from '../urls.js';
import type { IdeaSummary, PageModule, ProjectPageRow } from './queries.js';

/** Stored rich text (sanitised on save; cleaned again here, which changes nothing for clean text). */
function RichText({ html }: { html: string }) {
  return <div class="rich-text" dangerouslySetInnerHTML={{ __html: cleanRichText(html) }} />;
}

function Breadcrumbs({ lang, items }: { lang: Lang; items: { href: string; label: string }[] }) {
  return (
    <nav aria-label={t(lang, 'Breadcrumbs')}>
      <ol class="breadcrumbs">
        {items.map((item) => (
          <li>
            <a href={item.href}>{item.label}</a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Tiles({ page, projects, now, empty }: { page: PageContext; projects: FollowedProject[]; now: Date; empty: string }) {
  if (!projects.length) return <p>{empty}</p>;
  return (
    <ul class="tiles">
      {projects.map((project) => (
        <ProjectTile page={page} project={project} now={now} />
      ))}
    </ul>
  );
}

export function HomePage({ page, projects, now }: { page: PageContext; projects: FollowedProject[]; now: Date }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Projects')}>
      <h1>{t(lang, 'Projects')}</h1>
      <Tiles page={page} projects={projects} now={now} empty={t(lang, 'There are no projects yet.')} />
    </Layout>
  );
}

export function OrganisationPage(props: { page: PageContext; organisation: { name: string; title: string; description: string }; projects: FollowedProject[]; now: Date }) {
  const { page, organisation } = props;
  const { lang } = page;
  return (
    <Layout page={page} title={organisation.name}>
      <h1>{organisation.name}</h1>
      {organisation.title && <p class="lead">{organisation.title}</p>}
      {organisation.description && <p>{organisation.description}</p>}
      <section aria-labelledby="projects-heading">
        <h2 id="projects-heading">{t(lang, 'Projects')}</h2>
        <Tiles page={page} projects={props.projects} now={props.now} empty={t(lang, 'This organisation has no projects yet.')} />
      </section>
    </Layout>
  );
}

/** Display names of the phase types (through the catalogue). */
const PHASE_NAMES: Record<string, string> = {
  'a4_candy_ideas:issue': 'Issue phase',
  'a4_candy_ideas:collect': 'Collect phase',
  'a4_candy_ideas:rating': 'Rating phase',
  'a4_candy_ideas:feedback': 'Feedback phase',
  'a4_candy_ideas:collect_feedback': 'Collect and feedback phase',
  'a4polls:voting': 'Voting phase',
  'a4_candy_documents:document': 'Comment phase',
};

const phaseName = (lang: Lang, phase: { name: string; type: string }) => phase.name || t(lang, PHASE_NAMES[phase.type] ?? 'Phase');

function PhaseList({ page, phases, now }: { page: PageContext; phases: PageModule['phases']; now: Date }) {
  const { lang, timeZone } = page;
  if (!phases.length) return null;
  return (
    <ol class="phases">
      {phases.map((phase) => (
        <li aria-current={phaseIsActive(phase, now) ? 'step' : undefined}>
          <strong>{phaseName(lang, phase)}</strong>
          {phaseIsActive(phase, now) && <span class="badge">{t(lang, 'active')}</span>}
          {phase.startDate && phase.endDate && (
            <span>
              {' '}
              {formatDate(phase.startDate, lang, timeZone)} – {formatDate(phase.endDate, lang, timeZone)}
            </span>
          )}
          {phase.description && <p>{phase.description}</p>}
        </li>
      ))}
    </ol>
  );
}

export function IdeaList({ page, orgSlug, ideas }: { page: PageContext; orgSlug: string; ideas: IdeaSummary[] }) {
  const { lang, timeZone } = page;
  if (!ideas.length) return <p>{t(lang, 'No ideas yet.')}</p>;
  return (
    <ul class="idea-list">
      {ideas.map((idea) => (
        <li>
          <a href={ideaPath(orgSlug, idea.created, idea.id)}>{idea.name}</a>{' '}
          <span>
            {t(lang, 'by %(user)s on %(date)s', { user: idea.creatorName, date: formatDate(idea.created, lang, timeZone) })}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ContactInfo({ lang, project }: { lang: Lang; project: ProjectPageRow }) {
  const { contactName, contactAddressText, contactEmail, contactPhone, contactUrl } = project;
  if (![contactName, contactAddressText, contactEmail, contactPhone, contactUrl].some(Boolean)) return null;
  return (
    <section aria-labelledby="contact-heading">
      <h2 id="contact-heading">{t(lang, 'Contact for questions')}</h2>
      <address>
        {contactName && <p>{contactName}</p>}
        {contactAddressText && <p class="pre-line">{contactAddressText}</p>}
        {contactPhone && <p>{contactPhone}</p>}
        {contactEmail && (
          <p>
            <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </p>
        )}
        {/^https?:\/\//i.test(contactUrl) && (
          <p>
            <a href={contactUrl}>{contactUrl}</a>
          </p>
        )}
      </address>
    </section>
  );
}

function FollowForm({ page, project, following }: { page: PageContext; project: ProjectPageRow; following: boolean }) {
  const { lang } = page;
  if (!page.user) return null;
  return (
    <form method="post" action={`${projectPath(project.organisationSlug, project.slug)}follow/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="follow" value={following ? 'false' : 'true'} />
      <button type="submit" aria-pressed={following ? 'true' : 'false'}>
        {following ? t(lang, 'Unfollow') : t(lang, 'Follow')}
      </button>
    </form>
  );
}

export interface ProjectPageData {
  project: ProjectPageRow;
  timeDisplay: string;
  modules: PageModule[];
  ideas: Map<number, IdeaSummary[]>;
  following: boolean;
  now: Date;
}

export function ProjectPage({ page, data }: { page: PageContext; data: ProjectPageData }) {
  const { lang } = page;
  const { project } = data;
  return (
    <Layout page={page} title={project.name}>
      <Breadcrumbs lang={lang} items={[{ href: `/${project.organisationSlug}/`, label: project.organisationName }]} />
      <h1>{project.name}</h1>
      {project.isArchived && <p class="badge">{t(lang, 'archived')}</p>}
      <p class="lead">{project.description}</p>
      {data.timeDisplay && <p>{data.timeDisplay}</p>}
      <FollowForm page={page} project={project} following={data.following} />
      {project.information.trim() && (
        <section aria-labelledby="information-heading">
          <h2 id="information-heading">{t(lang, 'Information')}</h2>
          <RichText html={project.information} />
        </section>
      )}
      <section aria-labelledby="participation-heading">
        <h2 id="participation-heading">{t(lang, 'Participation')}</h2>
        {data.modules.length ? (
          data.modules.map((module) => (
            <ModuleSection page={page} orgSlug={project.organisationSlug} module={module} ideas={data.ideas.get(module.id) ?? []} now={data.now} />
          ))
        ) : (
          <p>{t(lang, 'No participation modules are published yet.')}</p>
        )}
      </section>
      {project.result.trim() && (
        <section aria-labelledby="result-heading">
          <h2 id="result-heading">{t(lang, 'Result')}</h2>
          <RichText html={project.result} />
        </section>
      )}
      <ContactInfo lang={lang} project={project} />
    </Layout>
  );
}

function ModuleSection({ page, orgSlug, module, ideas, now }: { page: PageContext; orgSlug: string; module: PageModule; ideas: IdeaSummary[]; now: Date }) {
  const { lang } = page;
  const url = modulePath(orgSlug, module.slug);
  return (
    <article class="module" aria-labelledby={`module-${module.id}`}>
      <h3 id={`module-${module.id}`}>
        <a href={url}>{module.name}</a>
      </h3>
      {module.description && <p>{module.description}</p>}
      <PhaseList page={page} phases={module.phases} now={now} />
      {ideas.length > 0 && (
        <>
          <h4>{t(lang, 'Newest ideas')}</h4>
          <IdeaList page={page} orgSlug={orgSlug} ideas={ideas} />
          <p>
            <a href={url}>{t(lang, 'All ideas of %(module)s', { module: module.name })}</a>
          </p>
        </>
      )}
    </article>
  );
}

export interface ModulePageData {
  orgSlug: string;
  organisationName: string;
  module: PageModule & { projectSlug: string; projectName: string };
  ideas: IdeaSummary[];
  pager: PagerLinks;
  polls: { id: number }[];
  chapters: { id: number; name: string; paragraphs: { id: number; name: string }[] }[];
  /** The comment threads of the polls, chapters and paragraphs, by "<kind>:<id>". */
  threads: Map<string, SerializedComment[]>;
  selected: number | null;
  now: Date;
}

function ItemThread({ page, data, kind, id, level }: { page: PageContext; data: ModulePageData; kind: string; id: number; level: 3 | 4 }) {
  const comments = data.threads.get(`${kind}:${id}`) ?? [];
  const count = comments.reduce((n, c) => n + 1 + c.child_comments.length, 0);
  return <CommentThread page={page} comments={comments} commentCount={count} selected={data.selected} form={null} heading={{ id: `${kind}-${id}-comments`, level }} />;
}

export function ModulePage({ page, data }: { page: PageContext; data: ModulePageData }) {
  const { lang } = page;
  const { module } = data;
  return (
    <Layout page={page} title={module.name}>
      <Breadcrumbs
        lang={lang}
        items={[
          { href: `/${data.orgSlug}/`, label: data.organisationName },
          { href: projectPath(data.orgSlug, module.projectSlug), label: module.projectName },
        ]}
      />
      <h1>{module.name}</h1>
      {module.description && <p class="lead">{module.description}</p>}
      <PhaseList page={page} phases={module.phases} now={data.now} />
      <section aria-labelledby="ideas-heading">
        <h2 id="ideas-heading">{t(lang, 'Ideas')}</h2>
        <IdeaList page={page} orgSlug={data.orgSlug} ideas={data.ideas} />
        <Pager lang={lang} pager={data.pager} />
      </section>
      {data.polls.length > 0 && (
        <section aria-labelledby="polls-heading">
          <h2 id="polls-heading">{t(lang, 'Polls')}</h2>
          {data.polls.map((poll) => (
            <article id={`poll-${poll.id}`} aria-labelledby={`poll-${poll.id}-heading`}>
              <h3 id={`poll-${poll.id}-heading`}>{t(lang, 'Poll %(id)s', { id: poll.id })}</h3>
              <ItemThread page={page} data={data} kind="poll" id={poll.id} level={4} />
            </article>
          ))}
        </section>
      )}
      {data.chapters.length > 0 && (
        <section aria-labelledby="chapters-heading">
          <h2 id="chapters-heading">{t(lang, 'Chapters')}</h2>
          {data.chapters.map((chapter) => (
            <article id={`chapter-${chapter.id}`} aria-labelledby={`chapter-${chapter.id}-heading`}>
              <h3 id={`chapter-${chapter.id}-heading`}>{chapter.name}</h3>
              <ItemThread page={page} data={data} kind="chapter" id={chapter.id} level={4} />
              {chapter.paragraphs.map((paragraph) => (
                <section id={`paragraph-${paragraph.id}`} aria-labelledby={`paragraph-${paragraph.id}-heading`}>
                  <h4 id={`paragraph-${paragraph.id}-heading`}>{paragraph.name || t(lang, 'Paragraph %(id)s', { id: paragraph.id })}</h4>
                  <ItemThread page={page} data={data} kind="paragraph" id={paragraph.id} level={4} />
                </section>
              ))}
            </article>
          ))}
        </section>
      )}
    </Layout>
  );
}

type SerializedComment = ReturnType<typeof serializeComment>;
type SerializedReply = Omit<SerializedComment, 'child_comments'>;

function hiddenNote(lang: Lang, comment: SerializedReply): string | null {
  if (comment.is_removed) return t(lang, 'Deleted by creator');
  if (comment.is_censored) return t(lang, 'Deleted by moderator');
  if (comment.is_blocked) return t(lang, 'Blocked by moderator');
  return null;
}

function CommentBody({ page, comment, highlighted }: { page: PageContext; comment: SerializedReply; highlighted: boolean }) {
  const { lang } = page;
  const note = hiddenNote(lang, comment);
  return (
    <div id={`comment-${comment.id}`} class={`comment${highlighted ? ' highlighted' : ''}`} tabIndex={-1}>
      <p class="comment-meta">
        {comment.user_profile_url ? <a href={profilePath(comment.user_name)}>{comment.user_name}</a> : <span>{comment.user_name}</span>}
        {comment.author_is_moderator && <span class="badge">{t(lang, 'Moderator')}</span>} <span>{comment.created}</span>
      </p>
      {note ? <p class="comment-hidden">{note}</p> : <p class="comment-text">{comment.comment}</p>}
      {comment.moderator_feedback && (
        <div class="feedback">
          <p>
            <strong>{t(lang, 'Feedback from moderation')}</strong> <span>{comment.moderator_feedback.last_edit}</span>
          </p>
          <p>{comment.moderator_feedback.feedback_text}</p>
        </div>
      )}
      <p class="comment-ratings">
        {t(lang, '%(positive)s agree, %(negative)s disagree', { positive: comment.ratings.positive_ratings, negative: comment.ratings.negative_ratings })}
      </p>
    </div>
  );
}

export interface CommentForm {
  action: string;
  value: string;
  errors: string[];
}

export interface ThreadProps {
  page: PageContext;
  comments: SerializedComment[];
  commentCount: number;
  selected: number | null;
  form: CommentForm | null;
  /** Where the thread sits in the page's outline (several threads need their own heading ids). */
  heading?: { id: string; level: 2 | 3 | 4 };
}

export function CommentThread(props: ThreadProps) {
  const { page, comments, selected, form } = props;
  const { lang } = page;
  const heading = props.heading ?? { id: 'comments-heading', level: 2 };
  const Heading = `h${heading.level}` as 'h2';
  return (
    <section aria-labelledby={heading.id} class="comments">
      <Heading id={heading.id}>{t(lang, 'Comments (%(count)s)', { count: props.commentCount })}</Heading>
      {form && (
        <form method="post" action={form.action} class="comment-form">
          <CsrfField page={page} />
          <label for="id_comment">{t(lang, 'Your comment')}</label>
          <textarea id="id_comment" name="comment" required maxLength={4000} rows={4} aria-invalid={form.errors.length ? 'true' : undefined} aria-describedby={form.errors.length ? 'id_comment_errors' : undefined}>
            {form.value}
          </textarea>
          <FieldErrors id="id_comment_errors" errors={form.errors} />
          <button type="submit">{t(lang, 'Post')}</button>
        </form>
      )}
      {comments.length ? (
        <ul class="comment-list">
          {comments.map((comment) => (
            <li>
              <CommentBody page={page} comment={comment} highlighted={comment.id === selected} />
              {comment.child_comments.length > 0 && (
                <ul class="replies" aria-label={t(lang, 'Replies')}>
                  {comment.child_comments.map((reply) => (
                    <li>
                      <CommentBody page={page} comment={reply} highlighted={reply.id === selected} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'No comments yet.')}</p>
      )}
    </section>
  );
}

export interface IdeaPageData {
  orgSlug: string;
  organisationName: string;
  projectSlug: string;
  projectName: string;
  moduleSlug: string;
  moduleName: string;
  idea: IdeaRow;
  moderatorStatus: string | null;
  moderatorFeedback: string | null;
  thread: ComponentChildren;
}

const MODERATOR_STATUSES: Record<string, string> = {
  CONSIDERATION: 'Under consideration',
  ACCEPTED: 'Accepted',
  REJECTED: 'Rejected',
};

export function IdeaPage({ page, data }: { page: PageContext; data: IdeaPageData }) {
  const { lang, timeZone } = page;
  const { idea } = data;
  const status = data.moderatorStatus ? (MODERATOR_STATUSES[data.moderatorStatus] ?? data.moderatorStatus) : null;
  return (
    <Layout page={page} title={idea.name}>
      <Breadcrumbs
        lang={lang}
        items={[
          { href: `/${data.orgSlug}/`, label: data.organisationName },
          { href: projectPath(data.orgSlug, data.projectSlug), label: data.projectName },
          { href: modulePath(data.orgSlug, data.moduleSlug), label: data.moduleName },
        ]}
      />
      <article class="idea">
        <h1>{idea.name}</h1>
        <p class="idea-meta">
          <a href={profilePath(idea.creatorName)}>{idea.creatorName}</a>{' '}
          <time dateTime={idea.created.toISOString()}>{formatDateTime(idea.created, lang, timeZone)}</time>
        </p>
        {(idea.category || idea.labels.length > 0) && (
          <ul class="idea-tags" aria-label={t(lang, 'Category and labels')}>
            {idea.category && <li class="badge">{idea.category.name}</li>}
            {idea.labels.map((label) => (
              <li class="badge">{label.name}</li>
            ))}
          </ul>
        )}
        <RichText html={idea.description} />
        <p class="idea-ratings">
          {t(lang, '%(positive)s agree, %(negative)s disagree', { positive: idea.positiveRatingCount, negative: idea.negativeRatingCount })}
        </p>
        {(status || data.moderatorFeedback) && (
          <section class="feedback" aria-labelledby="idea-feedback-heading">
            <h2 id="idea-feedback-heading">{t(lang, 'Feedback from moderation')}</h2>
            {status && <p>{t(lang, status)}</p>}
            {data.moderatorFeedback && <RichText html={data.moderatorFeedback} />}
          </section>
        )}
      </article>
      {data.thread}
    </Layout>
  );
}
