import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { type ContentKind, follows } from '../../db/schema/index.js';
import { t } from '../../i18n/index.js';
import { loadRecipients, type NoticeContext, projectBrand } from '../../mail/notices.js';
import { queueMail } from '../../mail/outbox.js';
import { recordAction } from '../../core/actions/services.js';
import { recordNotifications } from '../../core/notifications/services.js';
import { projectViewers } from '../../core/projects/context.js';
import { resultableContentTypes } from '../../core/modules/registry.js';
import { resultLinks } from './schema.js';

/** The e-mails of results (German in i18n/de-results.ts); the delivery adds the settings and the one-click unsubscribe. */
const RESULT_MAILS = {
  result_linked: {
    subject: 'Your contribution became part of a result',
    body: 'Hello %(name)s,\n\na contribution in the project "%(project)s" became part of the result "%(result)s" (%(status)s, %(progress)s %). Follow what becomes of it: %(url)s',
  },
  result_status: {
    subject: 'News about the result "%(result)s"',
    body: 'Hello %(name)s,\n\nthe result "%(result)s" of the project "%(project)s" is now "%(status)s" (%(progress)s %).\n\n%(text)s\n\nFollow what becomes of it: %(url)s',
  },
} as const;

type ResultNoticeKind = keyof typeof RESULT_MAILS;

/** What a notice tells. */
interface ResultNotice {
  kind: ResultNoticeKind;
  actorId: number | null;
  projectId: number;
  projectName: string;
  result: { id: number; title: string; path: string; status: string; progress: number };
  /** The timeline entry's text, if any. */
  text?: string;
  /** Only these contributions' authors (a new link); unset: the authors of every contribution the result answers. */
  links?: { kind: ContentKind; pk: number; creatorId: number | null }[];
}

/** The authors of the contributions a result answers (one statement per kind). */
async function linkedAuthors(tx: DbOrTx, resultId: number): Promise<{ kind: ContentKind; pk: number; creatorId: number | null }[]> {
  const rows = await tx.select({ kind: resultLinks.contentType, pk: resultLinks.objectPk }).from(resultLinks).where(eq(resultLinks.resultId, resultId));
  const out: { kind: ContentKind; pk: number; creatorId: number | null }[] = [];
  for (const row of rows) {
    const type = resultableContentTypes().find((c) => c.kind === row.kind);
    const target = type ? await type.target(tx, row.pk) : null;
    out.push({ ...row, creatorId: target?.creatorId ?? null });
  }
  return out;
}

/**
 * Tells the authors of the linked contributions and the project's followers (those who may still
 * see the project) in the app and by e-mail, and records one action per contribution for its
 * author's feed: the change and its notice are kept together or not at all.
 */
export async function sendResultNotice(tx: Tx, notice: ResultNotice, context: NoticeContext): Promise<number> {
  const links = notice.links ?? (await linkedAuthors(tx, notice.result.id));
  for (const link of links) {
    await recordAction(tx, {
      actorId: notice.actorId,
      verb: notice.kind === 'result_linked' ? 'add' : 'update',
      obj: { type: 'result', id: notice.result.id },
      target: { type: link.kind, id: link.pk },
      targetCreatorId: link.creatorId,
      projectId: notice.projectId,
      description: notice.kind === 'result_linked' ? null : `${notice.result.status}|${notice.result.progress}`,
    });
  }
  const followers = await tx.select({ id: follows.creatorId }).from(follows).where(and(eq(follows.projectId, notice.projectId), eq(follows.enabled, true)));
  const authors = links.flatMap((l) => (l.creatorId === null ? [] : [l.creatorId]));
  const viewers = [...(await projectViewers(tx, notice.projectId, [...authors, ...followers.map((f) => f.id)]))].filter((id) => id !== notice.actorId);
  if (!viewers.length) return 0;
  const context_ = { project: notice.projectName, result: notice.result.title, status: notice.result.status, progress: String(notice.result.progress) };
  await recordNotifications(tx, { kind: notice.kind, recipientIds: viewers, actorId: notice.actorId, projectId: notice.projectId, context: context_, url: notice.result.path });
  const recipients = await loadRecipients(tx, viewers, notice.kind);
  const brand = await projectBrand(tx, notice.projectId, context.origin);
  const texts = RESULT_MAILS[notice.kind];
  for (const r of recipients) {
    const vars = { ...context_, status: t(r.lang, notice.result.status), name: r.username, text: notice.text ?? '', url: `${context.origin}${notice.result.path}` };
    await queueMail(tx, { to: r.email, subject: t(r.lang, texts.subject, vars), body: t(r.lang, texts.body, vars), kind: notice.kind, brand });
  }
  return recipients.length;
}
