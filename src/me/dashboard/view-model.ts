import type { CommentRef } from '../../features/comments/queries.js';
import { commentPath, profilePath, projectPath } from '../../core/urls.js';
import { resultPath } from '../../features/results/queries.js';
import { type FeedEntry, isItemFeedback } from './queries.js';

type ActivityKind = 'comment' | 'reply' | 'feedback_added' | 'feedback_updated' | 'result_linked' | 'result_status' | 'item_feedback';

export interface Activity {
  id: number;
  kind: ActivityKind;
  timestamp: Date;
  actor: { name: string; url: string } | null;
  /** The comment the activity is about (the new comment, or the user's comment that got feedback). */
  commentUrl: string;
  commentText: string;
  /** Top-level comments: the user's contribution; replies: the user's comment. */
  targetUrl: string;
  project: { name: string; url: string } | null;
  /** A result that took up the user's contribution: its title, page, and (a change) the status and progress it reached. */
  result?: { title: string; url: string; status: string; progress: string };
  /** The item that got the moderation's official feedback ('item_feedback'). */
  item?: { name: string; url: string };
}

function kindOf(entry: FeedEntry): ActivityKind {
  if (entry.objType === 'result') return entry.verb === 'add' ? 'result_linked' : 'result_status';
  if (isItemFeedback(entry)) return 'item_feedback';
  if (entry.objType === 'moderatorcommentfeedback') return entry.verb === 'update' ? 'feedback_updated' : 'feedback_added';
  return entry.commentType === 'comment' ? 'reply' : 'comment';
}

/** The comments whose page paths the entries link to: each entry's comment and, for replies, its parent. */
export function linkedComments(entries: FeedEntry[]): CommentRef[] {
  const refs: CommentRef[] = [];
  for (const e of entries) {
    if (e.commentId !== null && e.commentType !== null && e.commentObjectPk !== null) refs.push({ id: e.commentId, contentType: e.commentType, objectPk: e.commentObjectPk });
    if (e.parentId !== null && e.parentType !== null && e.parentObjectPk !== null) refs.push({ id: e.parentId, contentType: e.parentType, objectPk: e.parentObjectPk });
  }
  return refs;
}

/** The item an official feedback is about: its page and name (a deleted item: the project page). */
function itemOf(entry: FeedEntry, itemPages: Map<string, { path: string; name: string }>, project: Activity['project']) {
  const page = itemPages.get(`${entry.targetType}:${entry.targetId}`);
  return page ? { name: page.name, url: page.path } : { name: '', url: project?.url ?? '/' };
}

/** A feed entry as the page shows it: its kind, texts and links (platform-facts §7, reaction.html). */
export function toActivity(entry: FeedEntry, commentPaths: Map<number, string>, itemPages: Map<string, { path: string; name: string }> = new Map()): Activity {
  const project = entry.projectSlug && entry.organisationSlug ? { name: entry.projectName ?? '', url: projectPath(entry.organisationSlug, entry.projectSlug) } : null;
  // `#comment-<id>` makes the browser scroll to the comment (the page marks it with that id).
  const pathOf = (commentId: number | null) =>
    commentId === null
      ? (project?.url ?? '/')
      : `${commentPaths.get(commentId) ?? (project ? commentPath(project.url, commentId) : '/')}${commentPaths.has(commentId) || project ? `#comment-${commentId}` : ''}`;
  const kind = kindOf(entry);
  if ((kind === 'result_linked' || kind === 'result_status') && entry.resultId !== null && entry.organisationSlug) {
    const url = resultPath(entry.organisationSlug, entry.resultId);
    const [status = '', progress = ''] = (entry.description ?? '').split('|');
    return { id: entry.id, kind, timestamp: entry.timestamp, actor: null, commentUrl: url, commentText: '', targetUrl: url, project, result: { title: entry.resultTitle ?? '', url, status, progress } };
  }
  const commentUrl = pathOf(entry.commentId);
  return {
    id: entry.id,
    kind,
    timestamp: entry.timestamp,
    actor: entry.actorName ? { name: entry.actorName, url: profilePath(entry.actorName) } : null,
    commentUrl,
    commentText: entry.commentText ?? '',
    // A top-level comment's target is the object it is on (the comment URL without ?comment=).
    targetUrl: kind === 'reply' ? pathOf(entry.parentId) : kind === 'comment' ? commentUrl.split(/[?#]/)[0] : commentUrl,
    project,
    ...(kind === 'item_feedback' ? { item: itemOf(entry, itemPages, project) } : {}),
  };
}
