import { mailDeliveryMode } from '../../mail/delivery.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { fieldErrors, notFound } from '../../http/errors.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { LANGUAGES, type Lang, t } from '../../i18n/index.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { redirectWithMessage } from '../../web/flash.js';
import { markReportsHandled } from '../../features/reports/services.js';
import { safeNext, sendPage } from '../../web/render.js';
import { loadPlatformPage, savePlatformPage } from '../../core/legal/queries.js';
import { isPlatformPageKey, PLATFORM_PAGE_KEYS } from '../../core/legal/texts.js';
import { listReportedItems } from '../../features/reports/queries.js';
import { reportableContentTypes } from '../../core/modules/registry.js';
import { operator } from './access.js';
import { MailsPage, PlatformPageForm, PlatformPagesPage, ReportsPage } from './content-views.js';
import { listMails } from './services.js';

const BACKOFFICE_PAGE_SIZE = 25;
/** The longest legal text an operator may store (characters of HTML). */
const LEGAL_TEXT_MAX = 100_000;

const ListQuery = Type.Object({ page: PageParam, done: Type.Optional(Type.String({ maxLength: 40 })) });
const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 500 })) });
const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 32, pattern: '^[-\\w]+$' }) });
const LegalBody = Type.Record(Type.String(), Type.String({ maxLength: LEGAL_TEXT_MAX * 2 }), { maxProperties: 10 });

/** The back-office's content pages: reported content, the platform's legal pages, the e-mails sent. */
export async function contentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/backoffice/reports/', pageRoute({ querystring: ListQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const number = pageNumber(request.query.page);
    const { count, items } = await listReportedItems(db, { size: BACKOFFICE_PAGE_SIZE, number });
    checkPageInRange(number, BACKOFFICE_PAGE_SIZE, count);
    return sendPage(reply, ReportsPage({ page, items, count, pager: pageLinks('/backoffice/reports/', number, BACKOFFICE_PAGE_SIZE, count) }));
  });

  // Issue 22.4: an operator marks the open reports of an item as handled; it leaves this list.
  app.post('/backoffice/reports/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page?.user) return reply;
    const user = page.user;
    const kind = field(request.body, 'kind');
    const id = Number(field(request.body, 'id'));
    const target = kind === 'comment' ? kind : reportableContentTypes().find((c) => c.kind === kind)?.kind;
    if (!target || !Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw fieldErrors({ kind: ['This is not one of the allowed values.'] });
    const closed = await db.transaction((tx) => markReportsHandled(tx, { type: target, id }, user.id));
    if (!closed) throw notFound();
    return redirectWithMessage(request, reply, '/backoffice/reports/', 'The reports were marked as handled.');
  });

  app.get('/backoffice/mails/', pageRoute({ querystring: ListQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const number = pageNumber(request.query.page);
    const { count, rows } = await listMails(db, { size: BACKOFFICE_PAGE_SIZE, number });
    checkPageInRange(number, BACKOFFICE_PAGE_SIZE, count);
    const delivery = mailDeliveryMode(config);
    return sendPage(reply, MailsPage({ page, mails: rows, count, delivery, mailDir: `${config.dataDir}/mail`, pager: pageLinks('/backoffice/mails/', number, BACKOFFICE_PAGE_SIZE, count) }));
  });

  app.get('/backoffice/pages/', pageRoute({ querystring: ListQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, PlatformPagesPage({ page, keys: PLATFORM_PAGE_KEYS, saved: request.query.done === 'saved' }));
  });

  app.get('/backoffice/pages/:key/', pageRoute({ params: KeyParams, querystring: NextQuery }), async (request, reply) => {
    const { key } = request.params;
    if (!isPlatformPageKey(key)) throw notFound();
    const page = await operator(request, reply);
    if (!page) return reply;
    const next = safeNext(request.query.next, '');
    return sendPage(reply, PlatformPageForm({ page, pageKey: key, values: await loadPlatformPage(db, key), errors: {}, next }));
  });

  app.post('/backoffice/pages/:key/', pageRoute({ params: KeyParams, body: LegalBody }), async (request, reply) => {
    checkCsrf(request);
    const { key } = request.params;
    if (!isPlatformPageKey(key)) throw notFound();
    const page = await operator(request, reply);
    if (!page) return reply;
    const values = Object.fromEntries(LANGUAGES.map((lang) => [lang, field(request.body, `body_${lang}`)])) as Record<Lang, string>;
    const errors: Record<string, string[]> = {};
    for (const lang of LANGUAGES) {
      if (values[lang].length > LEGAL_TEXT_MAX) errors[`body_${lang}`] = [t(page.lang, 'Ensure this field has no more than %(max)s characters.', { max: LEGAL_TEXT_MAX })];
    }
    // Reached from a refused publication: back to that project's dashboard once the text is saved.
    const next = safeNext(request.body.next, '');
    if (Object.keys(errors).length) return sendPage(reply, PlatformPageForm({ page, pageKey: key, values, errors, next }), 400);
    await db.transaction((tx) => savePlatformPage(tx, key, values));
    if (next) return redirectWithMessage(request, reply, next, 'Your changes have been saved.');
    return reply.redirect('/backoffice/pages/?done=saved', 302);
  });
}
