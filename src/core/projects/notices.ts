import type { Tx } from '../../db/client.js';
import { type Notice, projectBrand, projectName, queueNotice } from '../../mail/notices.js';
import { recordNotifications } from '../notifications/services.js';
import { projectViewers } from './context.js';

/** A notice about something in a project; the project's name is filled in here. */
type ProjectNotice = Omit<Notice, 'vars'> & { vars: Omit<Notice['vars'], 'project'>; message?: string };

/**
 * Queues a notice about a project to those of its recipients who may see the project now (issue
 * 21, finding 6): a removed participant of a private project or a follower of a project that went
 * back to draft is told nothing more about it. The notice goes by e-mail and into the notification
 * centre, each as the recipient's settings for the kind say, in the caller's transaction.
 */
export async function queueProjectNotice(db: Tx, projectId: number | null, notice: ProjectNotice): Promise<void> {
  // Content outside any project (none is made today) has no project to hide.
  const viewers = projectId === null ? new Set(notice.recipientIds) : await projectViewers(db, projectId, notice.recipientIds);
  const recipientIds = notice.recipientIds.filter((id) => viewers.has(id));
  if (!recipientIds.length) return;
  const project = await projectName(db, projectId);
  const brand = await projectBrand(db, projectId, originOf(notice.vars.url));
  await queueNotice(db, { ...notice, recipientIds, brand, vars: { ...notice.vars, project } });
  // The same event in the notification centre (its text is its own: no contribution's words are copied).
  const { actor, idea, status } = notice.vars;
  const context = Object.fromEntries(Object.entries({ project, actor, idea, status }).filter((entry): entry is [string, string] => Boolean(entry[1])));
  await recordNotifications(db, { kind: notice.kind, recipientIds, actorId: notice.actorId, projectId, context, url: notice.vars.url, message: notice.message });
}

/** The site's origin from a notice's absolute link (the logo's address is made on it). */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
