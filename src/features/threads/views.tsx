import type { ComponentChildren } from 'preact';
import { type Lang, t, tn } from '../../i18n/index.js';
import { PlainText, RichText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FieldErrors } from '../../web/layout.js';
import { guestRedirectUrl, loginRedirectUrl } from '../../web/render.js';
import { GuestBadge } from '../../web/guest-badge.js';
import { FEEDBACK_TEXT_MAX_LENGTH } from '../comments/feedback-rules.js';
import { OrganisationTermsField } from '../../web/organisation-terms.js';
import { REPORT_MAX_LENGTH } from '../reports/rules.js';
import { COMMENT_CATEGORIES, COMMENT_CATEGORY_NAMES } from '../comments/input.js';
import type { CommentOrdering } from '../comments/queries.js';
import { COMMENT_MAX_LENGTH } from '../comments/rules.js';
import { COMMENT_SEARCH_MAX_LENGTH, type ThreadView } from './queries.js';
import type { CommentView } from './view-model.js';

/** Where the comment forms post to (comments/pages.tsx). */
export const commentActionPath = (id: number, action: string) => `/comments/${id}/${action}/`;
const newCommentPath = (object: { type: string; id: number }) => `/comments/on/${object.type}/${object.id}/`;

const HIDDEN_NOTES = { removed: 'Deleted by creator', censored: 'Deleted by moderator', blocked: 'Blocked by moderator' };

const hiddenNote = (lang: Lang, comment: CommentView): string | null => (comment.hidden ? t(lang, HIDDEN_NOTES[comment.hidden]) : null);

/** A textarea for a comment with its label, counter hint and errors. */
export function CommentField({ lang, id, label, value, errors }: { lang: Lang; id: string; label: string; value: string; errors: string[] }) {
  return (
    <div class={`field${errors.length ? ' has-error' : ''}`}>
      <label for={id}>{label}</label>
      <textarea
        id={id}
        name="comment"
        required
        maxLength={COMMENT_MAX_LENGTH}
        rows={4}
        aria-invalid={errors.length ? 'true' : undefined}
        aria-describedby={`${id}_help${errors.length ? ` ${id}_errors` : ''}`}
      >
        {value}
      </textarea>
      <p class="help" id={`${id}_help`}>
        {t(lang, 'At most %(count)s characters.', { count: COMMENT_MAX_LENGTH })}
      </p>
      <FieldErrors id={`${id}_errors`} errors={errors} />
    </div>
  );
}

/** The comment categories' names (§A11.3). */

const ORDERING_NAMES: Record<CommentOrdering, string> = {
  '-created': 'Newest',
  created: 'Oldest',
  '-positive_rating_count': 'Most up votes',
  '-negative_rating_count': 'Most down votes',
  '-child_comment_count': 'Most answers',
  '-last_discussed': 'Last discussed',
};

/** The category checkboxes of a new top-level comment (where the module offers them), with their error. */
export function CategoryFields({ lang, id, chosen, errors }: { lang: Lang; id: string; chosen: string[]; errors: string[] }) {
  return (
    <fieldset class={`field${errors.length ? ' has-error' : ''}`} aria-describedby={errors.length ? `${id}_errors` : undefined}>
      <legend>{t(lang, 'Category of your comment (optional)')}</legend>
      {COMMENT_CATEGORIES.map((category) => (
        <label class="checkbox">
          <input type="checkbox" name="comment_categories" value={category} checked={chosen.includes(category)} /> {t(lang, COMMENT_CATEGORY_NAMES[category])}
        </label>
      ))}
      <FieldErrors id={`${id}_errors`} errors={errors} />
    </fieldset>
  );
}

/** Search, ordering and (where offered) category of a thread: a GET form, so the state lives in the address. */
function ThreadControls({ lang, thread, action }: { lang: Lang; thread: ThreadView; action: string }) {
  const { filter } = thread;
  const id = `${thread.object.type}_${thread.object.id}`;
  return (
    <form method="get" action={`${action}#comments-heading`} class="filter-bar" role="search" aria-label={t(lang, 'Search and sort comments')}>
      <div class="field">
        <label for={`id_comment_search_${id}`}>{t(lang, 'Search comments')}</label>
        <input type="search" id={`id_comment_search_${id}`} name="comment_search" value={filter.search} maxLength={COMMENT_SEARCH_MAX_LENGTH} />
      </div>
      <div class="field">
        <label for={`id_comment_ordering_${id}`}>{t(lang, 'Ordering')}</label>
        <select id={`id_comment_ordering_${id}`} name="comment_ordering">
          {Object.entries(ORDERING_NAMES).map(([value, name]) => (
            <option value={value} selected={filter.ordering === value}>
              {t(lang, name)}
            </option>
          ))}
        </select>
      </div>
      {thread.categories && (
        <div class="field">
          <label for={`id_comment_category_${id}`}>{t(lang, 'Category')}</label>
          <select id={`id_comment_category_${id}`} name="comment_category">
            <option value="">{t(lang, 'All')}</option>
            {COMMENT_CATEGORIES.map((category) => (
              <option value={category} selected={filter.category === category}>
                {t(lang, COMMENT_CATEGORY_NAMES[category])}
              </option>
            ))}
          </select>
        </div>
      )}
      <button type="submit">{t(lang, 'Show')}</button>
    </form>
  );
}

function ActionForm({ page, id, action, children, fields = {} }: { page: PageContext; id: number; action: string; children: ComponentChildren; fields?: Record<string, string> }) {
  return (
    <form method="post" action={commentActionPath(id, action)} class="inline-form">
      <CsrfField page={page} />
      {Object.entries(fields).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}

function Ratings({ page, comment }: { page: PageContext; comment: CommentView }) {
  const { lang } = page;
  const { up, down, mine } = comment.ratings;
  if (!comment.actions.rate) {
    return <p class="comment-ratings">{`${tn(lang, '%(count)s agrees', '%(count)s agree', up)}, ${tn(lang, '%(count)s disagrees', '%(count)s disagree', down)}`}</p>;
  }
  return (
    <div class="ratings" role="group" aria-label={t(lang, 'Rate this comment')}>
      <ActionForm page={page} id={comment.id} action="rate" fields={{ value: '1' }}>
        <button type="submit" class="rating-button" aria-pressed={mine === 1 ? 'true' : 'false'}>
          {tn(lang, '%(count)s agrees', '%(count)s agree', up)}
        </button>
      </ActionForm>
      <ActionForm page={page} id={comment.id} action="rate" fields={{ value: '-1' }}>
        <button type="submit" class="rating-button" aria-pressed={mine === -1 ? 'true' : 'false'}>
          {tn(lang, '%(count)s disagrees', '%(count)s disagree', down)}
        </button>
      </ActionForm>
    </div>
  );
}

/** A form behind a disclosure (works without JavaScript). */
function Disclosure({ summary, children }: { summary: string; children: ComponentChildren }) {
  return (
    <details class="comment-action">
      <summary>{summary}</summary>
      {children}
    </details>
  );
}

function TextForm({ page, comment, action, label, value, submit, termsOf }: { page: PageContext; comment: CommentView; action: string; label: string; value: string; submit: string; termsOf: string | null }) {
  return (
    <form method="post" action={commentActionPath(comment.id, action)} class="comment-form">
      <CsrfField page={page} />
      <CommentField lang={page.lang} id={`id_${action}_${comment.id}`} label={label} value={value} errors={[]} />
      {termsOf && <OrganisationTermsField lang={page.lang} id={`id_${action}_${comment.id}_terms`} slug={termsOf} />}
      <button type="submit">{submit}</button>
    </form>
  );
}

function CommentActionsBar({ page, comment, termsOf }: { page: PageContext; comment: CommentView; termsOf: string | null }) {
  const { lang } = page;
  const { actions } = comment;
  return (
    <div class="comment-actions">
      {actions.reply && (
        <Disclosure summary={t(lang, 'Reply')}>
          <TextForm page={page} comment={comment} action="reply" label={t(lang, 'Your reply')} value="" submit={t(lang, 'Post reply')} termsOf={termsOf} />
        </Disclosure>
      )}
      {actions.edit && (
        <Disclosure summary={t(lang, 'Edit')}>
          <TextForm page={page} comment={comment} action="edit" label={t(lang, 'Change your comment')} value={comment.text} submit={t(lang, 'Save')} termsOf={termsOf} />
        </Disclosure>
      )}
      {actions.delete && (
        <Disclosure summary={t(lang, 'Delete')}>
          <p>{t(lang, 'Do you really want to delete this comment?')}</p>
          <ActionForm page={page} id={comment.id} action="delete">
            <button type="submit">{t(lang, 'Delete comment')}</button>
          </ActionForm>
        </Disclosure>
      )}
      {actions.report && (
        <Disclosure summary={t(lang, 'Report')}>
          <form method="post" action={commentActionPath(comment.id, 'report')} class="comment-form">
            <CsrfField page={page} />
            <div class="field">
              <label for={`id_report_${comment.id}`}>{t(lang, 'Why do you report this comment?')}</label>
              <textarea id={`id_report_${comment.id}`} name="description" required maxLength={REPORT_MAX_LENGTH} rows={3} />
            </div>
            <button type="submit">{t(lang, 'Send report')}</button>
          </form>
        </Disclosure>
      )}
      {actions.moderate && <ModeratorTools page={page} comment={comment} />}
    </div>
  );
}

function ModeratorTools({ page, comment }: { page: PageContext; comment: CommentView }) {
  const { lang } = page;
  const gone = comment.hidden === 'removed' || comment.hidden === 'censored';
  return (
    <>
      {!gone && (
        <ActionForm page={page} id={comment.id} action="moderate" fields={{ action: comment.isBlocked ? 'unblock' : 'block' }}>
          <button type="submit" class="btn-secondary">
            {comment.isBlocked ? t(lang, 'Unblock') : t(lang, 'Block')}
          </button>
        </ActionForm>
      )}
      {!gone && (
        <ActionForm page={page} id={comment.id} action="moderate" fields={{ action: comment.isModeratorMarked ? 'unmark' : 'mark' }}>
          <button type="submit" class="btn-secondary">
            {comment.isModeratorMarked ? t(lang, 'Remove highlight') : t(lang, 'Highlight')}
          </button>
        </ActionForm>
      )}
      {comment.feedback && (
        <ActionForm page={page} id={comment.id} action="feedback/delete">
          <button type="submit" class="btn-secondary">
            {t(lang, 'Delete feedback')}
          </button>
        </ActionForm>
      )}
      <ActionForm page={page} id={comment.id} action="moderate" fields={{ action: comment.isReviewed ? 'unread' : 'read' }}>
        <button type="submit" class="btn-secondary">
          {comment.isReviewed ? t(lang, 'Mark as unread') : t(lang, 'Mark as read')}
        </button>
      </ActionForm>
      {!gone && (
        <Disclosure summary={t(lang, 'Feedback from moderation')}>
          <form method="post" action={commentActionPath(comment.id, 'feedback')} class="comment-form">
            <CsrfField page={page} />
            <div class="field">
              <label for={`id_feedback_${comment.id}`}>{t(lang, 'Feedback to the author')}</label>
              <textarea id={`id_feedback_${comment.id}`} name="feedback_text" required maxLength={FEEDBACK_TEXT_MAX_LENGTH} rows={3}>
                {comment.feedback?.text ?? ''}
              </textarea>
            </div>
            <button type="submit">{t(lang, 'Save feedback')}</button>
          </form>
        </Disclosure>
      )}
    </>
  );
}

function CommentItem({ page, comment, selected, termsOf }: { page: PageContext; comment: CommentView; selected: number | null; termsOf: string | null }) {
  const { lang } = page;
  const note = hiddenNote(lang, comment);
  const isModerator = comment.actions.moderate;
  return (
    <article id={`comment-${comment.id}`} class={`comment${comment.id === selected ? ' highlighted' : ''}`} tabIndex={-1} aria-label={t(lang, 'Comment by %(user)s', { user: comment.author })}>
      <p class="comment-meta">
        {comment.authorPath ? <a href={comment.authorPath}>{comment.author}</a> : <span>{comment.author}</span>}
        {comment.authorIsModerator && <span class="badge">{t(lang, 'Moderator')}</span>} {comment.byGuest && <GuestBadge lang={lang} />} <span>{comment.created}</span>
        {comment.edited && !note && <span> ({t(lang, 'edited')})</span>}
        {isModerator && comment.isBlocked && <span class="badge">{t(lang, 'blocked')}</span>}
        {comment.isModeratorMarked && !note && <span class="badge">{t(lang, 'highlighted')}</span>}
      </p>
      {!note &&
        comment.categories.map((name) => <span class="badge">{name}</span>)}
      {note && <p class="comment-hidden">{note}</p>}
      {(!note || (isModerator && comment.isBlocked)) && <PlainText class="comment-text" text={comment.text} />}
      {comment.feedback && (
        <div class="feedback">
          <p>
            <strong>{t(lang, 'Feedback from moderation')}</strong> <span>{comment.feedback.lastEdit}</span>
          </p>
          <RichText html={comment.feedback.text} />
        </div>
      )}
      <Ratings page={page} comment={comment} />
      <CommentActionsBar page={page} comment={comment} termsOf={termsOf} />
    </article>
  );
}

interface ThreadProps {
  page: PageContext;
  thread: ThreadView;
  selected: number | null;
  /** Links to the thread's other pages (`?comment_page=n`), or null when it has one page. */
  pageLink: (n: number) => string;
  /** Where the thread sits in the page's outline (several threads need their own heading ids). */
  heading?: { id: string; level: 2 | 3 | 4 };
  /** The page the search and ordering form goes to; no form without it. */
  controls?: string;
}

export function CommentThread({ page, thread, selected, pageLink, heading = { id: 'comments-heading', level: 2 }, controls }: ThreadProps) {
  const { lang } = page;
  const Heading = `h${heading.level}` as 'h2';
  const formId = `id_comment_${thread.object.type}_${thread.object.id}`;
  return (
    <section aria-labelledby={heading.id} class="comments">
      <Heading id={heading.id}>{t(lang, 'Comments (%(count)s)', { count: thread.commentCount })}</Heading>
      {thread.mayComment ? (
        <form method="post" action={newCommentPath(thread.object)} class="comment-form">
          <CsrfField page={page} />
          <CommentField lang={lang} id={formId} label={t(lang, 'Your comment')} value="" errors={[]} />
          {thread.categories && <CategoryFields lang={lang} id={`${formId}_categories`} chosen={[]} errors={[]} />}
          {thread.termsOf && <OrganisationTermsField lang={lang} id={`${formId}_terms`} slug={thread.termsOf} />}
          <button type="submit">{t(lang, 'Post')}</button>
        </form>
      ) : (
        thread.notice && (
          <p class="notice">
            {thread.notice === 'Please log in to comment.' ? <a href={loginRedirectUrl(page.path)}>{t(lang, thread.notice)}</a> : t(lang, thread.notice)}
            {thread.guest && (
              <>
                {' '}
                <a href={guestRedirectUrl(page.path)}>{t(lang, 'Take part as a guest')}</a>
              </>
            )}
          </p>
        )
      )}
      {controls && thread.commentCount > 0 && <ThreadControls lang={lang} thread={thread} action={controls} />}
      {(thread.filter.search || thread.filter.category) && (
        <p role="status">{tn(lang, '%(count)s comment matches.', '%(count)s comments match.', thread.matches)}</p>
      )}
      {thread.comments.length ? (
        <ul class="comment-list">
          {thread.comments.map((comment) => (
            <li>
              <CommentItem page={page} comment={comment} selected={selected} termsOf={thread.termsOf} />
              {comment.replies.length > 0 && (
                <details class="replies-toggle" open={comment.replies.some((r) => r.id === selected) || comment.replies.length <= 3}>
                  <summary>{tn(lang, '%(count)s answer', '%(count)s answers', comment.replies.length)}</summary>
                  <ul class="replies" aria-label={t(lang, 'Replies')}>
                    {comment.replies.map((reply) => (
                      <li>
                        <CommentItem page={page} comment={reply} selected={selected} termsOf={thread.termsOf} />
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
      ) : (
        !thread.filter.search && !thread.filter.category && <p>{t(lang, 'No comments yet.')}</p>
      )}
      {thread.pages > 1 && (
        <nav class="pager" aria-label={t(lang, 'Pages of comments')}>
          {thread.page > 1 && <a href={pageLink(thread.page - 1)}>{t(lang, 'Previous page')}</a>}
          <span>{t(lang, 'Page %(page)s of %(pages)s', { page: thread.page, pages: thread.pages })}</span>
          {thread.page < thread.pages && <a href={pageLink(thread.page + 1)}>{t(lang, 'Next page')}</a>}
        </nav>
      )}
    </section>
  );
}
