import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { PathId, Slug } from '../../http/responses.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, FORM_FIELD_MAX_LENGTH, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { moduleWhereMay, viewableModule } from '../moduletypes/items.js';
import { ItemQuery, itemThread, ModuleParams } from '../moduletypes/item-routing.js';
import { checkDocumentForm, documentForm, readDocumentForm } from './editor.js';
import { chapterPath, documentEditPath, findChapter, findParagraph, loadDocument, paragraphPath } from './queries.js';
import { canEditDocument } from './rules.js';
import { saveDocument } from './services.js';
import { ChapterPage, EditorPage, ParagraphPage } from './views.js';

const ItemParams = Type.Object({ org: Slug, pk: PathId });
/** The editor's form: many fields (every chapter and paragraph has a few). */
const DocumentBody = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: FORM_FIELD_MAX_LENGTH }), { maxProperties: 5000 });

/** The pages of a text review: a chapter, a paragraph (each with its comments), and the document editor. */
export async function documentPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/:org/text/chapters/:pk/', pageRoute({ params: ItemParams, querystring: ItemQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { org, pk } = request.params;
    const found = await findChapter(db, org, pk);
    if (!found) throw notFound();
    const { module, context } = await viewableModule(db, org, found.moduleSlug, page.user);
    const chapters = await loadDocument(db, module.id);
    const chapter = chapters.find((c) => c.id === pk);
    if (!chapter) throw notFound();
    const path = chapterPath(org, pk);
    const edit = canEditDocument(context) ? documentEditPath(org, module.slug) : null;
    const data = { orgSlug: org, module, chapters, chapter, edit, thread: await itemThread(app.ctx, { request, query: request.query, page, context }, { type: 'chapter', id: pk }, path) };
    return sendPage(reply, <ChapterPage page={page} data={data} />);
  });

  app.get('/:org/text/paragraphs/:pk/', pageRoute({ params: ItemParams, querystring: ItemQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { org, pk } = request.params;
    const found = await findParagraph(db, org, pk);
    if (!found) throw notFound();
    const { module, context } = await viewableModule(db, org, found.moduleSlug, page.user);
    const chapter = (await loadDocument(db, module.id)).find((c) => c.id === found.chapterId);
    const index = chapter?.paragraphs.findIndex((p) => p.id === pk) ?? -1;
    if (!chapter || index < 0) throw notFound();
    const path = paragraphPath(org, pk);
    const data = { orgSlug: org, module, chapter, paragraph: chapter.paragraphs[index], index, thread: await itemThread(app.ctx, { request, query: request.query, page, context }, { type: 'paragraph', id: pk }, path) };
    return sendPage(reply, <ParagraphPage page={page} data={data} />);
  });

  /** A text review module whose text the viewer may edit: 404 for a module of another type, 403 for who may see it but not edit. */
  const editable = (page: PageContext, params: { org: string; slug: string }) => moduleWhereMay(db, params, 'TR', canEditDocument, page.user);

  const editRoute = '/:org/text/module/:slug/edit/';
  app.get(editRoute, pageRoute({ params: ModuleParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const module = await editable(page, request.params);
    const form = documentForm(await loadDocument(db, module.id));
    return sendPage(reply, <EditorPage page={page} data={{ orgSlug: request.params.org, module, form, errors: {}, problems: [] }} />);
  });

  app.post(editRoute, pageRoute({ params: ModuleParams, body: DocumentBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const module = await editable(page, request.params);
    const user = page.user;
    if (!user) throw denied(null);
    const form = readDocumentForm(request.body);
    const { input, errors } = checkDocumentForm(form, page.lang);
    const problems = Object.keys(errors).length ? [] : await db.transaction((tx) => saveDocument(tx, module.id, user.id, input));
    if (Object.keys(errors).length || problems.length) {
      const data = { orgSlug: request.params.org, module, form, errors, problems: problems.map((p) => t(page.lang, p.message, p.vars)) };
      return sendPage(reply, <EditorPage page={page} data={data} />, 400);
    }
    return redirectWithMessage(request, reply, documentEditPath(request.params.org, module.slug), 'The text has been saved.');
  });
}
