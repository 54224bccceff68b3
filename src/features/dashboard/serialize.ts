import { referenceNumber } from '../ideas/serialize.js';
import type { FeedEntry } from './queries.js';

/** Page URLs of the platform's objects (platform-facts §2). */
export const projectUrl = (organisationSlug: string, slug: string) => `/${organisationSlug}/projects/${slug}/`;
export const ideaUrl = (organisationSlug: string, idea: { id: number; created: Date }) => `/${organisationSlug}/ideas/${referenceNumber(idea)}/`;
export const profileUrl = (username: string) => `/profile/${encodeURIComponent(username)}/`;

export type ActivityKind = 'comment' | 'reply' | 'feedback_added' | 'feedback_updated';

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
}

function kindOf(entry: FeedEntry): ActivityKind {
  if (entry.objType === 'moderatorcommentfeedback') return entry.verb === 'update' ? 'feedback_updated' : 'feedback_added';
  return entry.commentType === 'comment' ? 'reply' : 'comment';
}

/** A feed entry as the page shows it: its kind, texts and links (platform-facts §7, reaction.html). */
export function toActivity(entry: FeedEntry): Activity {
  const project = entry.projectSlug && entry.organisationSlug ? { name: entry.projectName ?? '', url: projectUrl(entry.organisationSlug, entry.projectSlug) } : null;
  const base = project?.url ?? '/';
  const rootUrl =
    entry.rootType === 'idea' && entry.rootPk !== null && entry.ideaCreated && entry.organisationSlug
      ? ideaUrl(entry.organisationSlug, { id: entry.rootPk, created: entry.ideaCreated })
      : base;
  const commentUrl = entry.commentId !== null ? `${rootUrl}?comment=${entry.commentId}` : rootUrl;
  const kind = kindOf(entry);
  return {
    id: entry.id,
    kind,
    timestamp: entry.timestamp,
    actor: entry.actorName ? { name: entry.actorName, url: profileUrl(entry.actorName) } : null,
    commentUrl,
    commentText: entry.commentText ?? '',
    targetUrl: kind === 'reply' && entry.parentId !== null ? `${rootUrl}?comment=${entry.parentId}` : kind === 'comment' ? rootUrl : commentUrl,
    project,
  };
}
