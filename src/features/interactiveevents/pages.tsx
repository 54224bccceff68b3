import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { notFound, permissionDenied, type FieldErrors } from '../../http/errors.js';
import { livePosition } from '../../http/live.js';
import { checkPageInRange, pageLinks, pageNumber, PageParam } from '../../http/pagination.js';
import { PathId, Slug } from '../../http/responses.js';
import { browserSessionKey, likeSessionKey, pageVisitor, SESSION_COOKIE } from '../../http/session.js';
import { t } from '../../i18n/index.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { modulePath, projectPath } from '../../core/urls.js';
import { Breadcrumbs } from '../../web/components.js';
import { framedPage, pageBasics, pageContext, type PageContext } from '../../web/context.js';
import { keptViewerRefs, sendKeptPage } from '../../web/page-keeping.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { sendFragment, sendPage } from '../../web/render.js';
import { affiliationStatistics, listQuestions, loadAffiliations, loadMedia, loadQuestion, loadQuestionLikes, prepareEventPage, questionCounts, questionPage, QUESTIONS_PER_PAGE } from './queries.js';
import { eventContext, isVisibleEvent, readAffiliation } from './routes.js';
import { canAskQuestion, canLikeQuestion, canModerateEvent, LIKE_NEEDS_SESSION, QUESTION_MAX } from './rules.js';
import { changeQuestion, createQuestion, type QuestionFlags, setLike } from './services.js';
import { EventPage, eventPath, likedQuestionIds, likeValuesOf, LIVE_POSITION_REF, PresentationScreen, QuestionFragment } from './views.js';

/**
 * The event page (`/<org>/interactiveevents/<module>/`: ask, like, and for moderators the toggles
 * and statistics) and the presentation screen for the projector. Both update themselves through
 * the live channel (/static/live.js and EventSource); without JavaScript every form posts and the
 * page comes back, and a reload shows the news.
 */

const EventParams = Type.Object({ org: Slug, slug: Slug });
/** A page of the open questions, or (`answered=1`) of the answered ones. */
const EventQuery = Type.Object({ page: PageParam, answered: Type.Optional(Type.Literal('1')) });
const QuestionParams = Type.Object({ org: Slug, slug: Slug, id: PathId });
const LIVE_SCRIPTS = ['/static/live.js'];
const FLAG_FIELDS: Record<string, keyof QuestionFlags> = { is_hidden: 'isHidden', is_answered: 'isAnswered', is_on_shortlist: 'isOnShortlist', is_live: 'isLive' };

export async function interactiveEventPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** The event module by its address, with its context for the viewer (404 as the API). */
  async function loadEvent(request: FastifyRequest, reply: FastifyReply, org: string, slug: string) {
    const page = await pageContext(request, reply);
    const module = (await loadModulePage(db, org, slug, null))?.module;
    if (!module) throw notFound();
    const context = await eventContext(db, module.id, page.user);
    return { page, module, context };
  }

  const eventPage = prepareEventPage(db);

  /**
   * The event page, kept (web/page-keeping.ts) under the event module's version for its address,
   * language and viewer, in one statement for a repeat read: the head statement reads the version,
   * the viewer's context, the live position and the likes of the questions the kept page shows, which
   * are put in at sending (`viewerValue`: a like moves no version). With a form's errors it is
   * rendered for this request alone (400).
   */
  async function renderEvent(request: FastifyRequest, reply: FastifyReply, org: string, slug: string, query: { page?: string; answered?: '1' }, form?: { values: Record<string, string>; errors: FieldErrors }) {
    const basics = await pageBasics(request, reply);
    const visitor = pageVisitor(request);
    const cookieSession = browserSessionKey(request.cookies[SESSION_COOKIE]);
    const head = await eventPage({ org, slug, session: cookieSession, visitor: visitor.key, questions: likedQuestionIds(keptViewerRefs(request, basics)) }, basics.user);
    if (!head || !isVisibleEvent(head.context)) throw notFound();
    const { context } = head;
    const moderator = canModerateEvent(context);
    const mayLike = canLikeQuestion(context);
    // Likes count under the viewer's live browser session, else their visitor identity, handed out with the page (nothing is written).
    if (mayLike && !head.liveSession) visitor.issue(reply);
    const session = mayLike ? (head.liveSession ? cookieSession : visitor.key) : null;
    const module = { id: context.module.id, slug: head.slug, name: head.name, description: head.description };
    const render = async (page: PageContext) => {
      const number = pageNumber(query.page);
      const showAnswered = query.answered === '1';
      // Independent reads, sent at once (each its own connection of the pool): a new version's rendering waits for the slowest, not their sum.
      const [listed, affiliations, statistics, media] = await Promise.all([
        questionPage(db, module.id, { session, withHidden: moderator, answered: showAnswered, page: number }),
        loadAffiliations(db, module.id),
        moderator ? affiliationStatistics(db, module.id) : null,
        loadMedia(db, module.id),
      ]);
      checkPageInRange(number, QUESTIONS_PER_PAGE, showAnswered ? listed.answered : listed.open);
      const here = request.method === 'GET' ? request.url : eventPath(org, slug);
      const data = {
        org,
        module,
        ...listed,
        showAnswered,
        pager: pageLinks(here, number, QUESTIONS_PER_PAGE, showAnswered ? listed.answered : listed.open),
        affiliations,
        statistics,
        media,
        mayAsk: canAskQuestion(context),
        mayLike,
        moderator,
        lastEventId: head.position,
        form: form ?? { values: {}, errors: {} },
      };
      return (
        <Layout page={page} title={module.name} scripts={LIVE_SCRIPTS}>
          <Breadcrumbs lang={page.lang} items={[{ href: `/${org}/`, label: head.organisationName }, { href: projectPath(org, head.projectSlug), label: head.projectName }, { href: modulePath(org, module.slug), label: module.name }]} />
          <h1>{module.name}</h1>
          {module.description && <p class="lead">{module.description}</p>}
          <EventPage page={page} data={data} />
        </Layout>
      );
    };
    if (form) return sendPage(reply, await render(await framedPage(request, basics)), 400);
    const read = { [LIVE_POSITION_REF]: head.position, ...likeValuesOf(head.likes) };
    const load = async (refs: string[]) => likeValuesOf(await loadQuestionLikes(db, module.id, likedQuestionIds(refs), session));
    return sendKeptPage(request, reply, basics, head.pageVersion, render, { read, load });
  }

  app.get('/:org/interactiveevents/:slug/', pageRoute({ params: EventParams, querystring: EventQuery }), async (request, reply) =>
    renderEvent(request, reply, request.params.org, request.params.slug, request.query),
  );

  app.post('/:org/interactiveevents/:slug/questions/', pageRoute({ params: EventParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { org, slug } = request.params;
    const { page, module, context } = await loadEvent(request, reply, org, slug);
    if (!canAskQuestion(context)) throw permissionDenied();
    const values = { text: field(request.body, 'text'), category: field(request.body, 'category') };
    const errors: FieldErrors = {};
    const affiliation = readAffiliation(values.category, await loadAffiliations(db, module.id));
    if ('error' in affiliation) errors.category = [t(page.lang, affiliation.error === 'This field is required.' ? 'Please choose your affiliation.' : 'Please choose one of the affiliations.')];
    if (!values.text) errors.text = [t(page.lang, 'This field is required.')];
    else if (values.text.length > QUESTION_MAX) errors.text = [t(page.lang, 'Ensure this field has no more than %(max)s characters.', { max: QUESTION_MAX })];
    if (Object.keys(errors).length || 'error' in affiliation) return renderEvent(request, reply, org, slug, {}, { values, errors });
    await createQuestion(db, { moduleId: module.id, text: values.text, ...affiliation });
    return reply.redirect(`${eventPath(org, slug)}#questions-heading`, 303);
  });

  // One question with the headings' counts, for the page's live updates (views.tsx, QuestionFragment): a page that hears of a question fetches this, not itself.
  app.get('/:org/interactiveevents/:slug/questions/:id/', pageRoute({ params: QuestionParams }), async (request, reply) => {
    const { org, slug, id } = request.params;
    const { page, module, context } = await loadEvent(request, reply, org, slug);
    const moderator = canModerateEvent(context);
    const mayLike = canLikeQuestion(context);
    // The page that asks gave the identity its likes are bound to; this fragment gives none.
    const session = mayLike || page.user ? await likeSessionKey(db, request) : null;
    const question = await loadQuestion(db, module.id, id, session);
    const open = question && !question.isAnswered && (moderator || !question.isHidden) ? question : null;
    const counts = await questionCounts(db, module.id, moderator);
    return sendFragment(reply, <QuestionFragment page={page} q={open} counts={counts} base={eventPath(org, slug)} mayLike={mayLike} moderator={moderator} />);
  });

  app.post('/:org/interactiveevents/:slug/questions/:id/like/', pageRoute({ params: QuestionParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { org, slug, id } = request.params;
    const { module, context } = await loadEvent(request, reply, org, slug);
    const question = await loadQuestion(db, module.id, id);
    if (!question || (question.isHidden && !canModerateEvent(context))) throw notFound();
    if (!canLikeQuestion(context)) throw permissionDenied();
    const session = await likeSessionKey(db, request);
    if (!session) throw permissionDenied(LIKE_NEEDS_SESSION);
    await setLike(db, module.id, id, session, field(request.body, 'value') !== 'false');
    return reply.redirect(`${eventPath(org, slug)}#question-${id}`, 303);
  });

  app.post('/:org/interactiveevents/:slug/questions/:id/flags/', pageRoute({ params: QuestionParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { org, slug, id } = request.params;
    const { page, module, context } = await loadEvent(request, reply, org, slug);
    if (!canModerateEvent(context)) throw denied(page.user);
    const key = FLAG_FIELDS[field(request.body, 'flag')];
    if (!key || !(await loadQuestion(db, module.id, id))) throw notFound();
    await db.transaction((tx) => changeQuestion(tx, module.id, id, { [key]: field(request.body, 'value') === 'true' }));
    return reply.redirect(`${eventPath(org, slug)}#question-${id}`, 303);
  });

  app.get('/:org/interactiveevents/present/module/:slug/', pageRoute({ params: EventParams }), async (request, reply) => {
    const { org, slug } = request.params;
    const { page, module, context } = await loadEvent(request, reply, org, slug);
    if (!canModerateEvent(context)) throw denied(page.user);
    const questions = await listQuestions(db, module.id, { session: null, withHidden: false, isLive: true, isAnswered: false });
    const data = { module, projectName: module.projectName, questions, eventUrl: `${config.baseUrl}${eventPath(org, slug)}`, lastEventId: await livePosition(db) };
    return sendPage(reply, <PresentationLayout page={page} title={module.name}><PresentationScreen page={page} data={data} /></PresentationLayout>);
  });
}

/** The projector's page: no navigation, large type. */
function PresentationLayout({ page, title, children }: { page: PageContext; title: string; children: ComponentChildren }) {
  return (
    <html lang={page.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} — Allmende`}</title>
        <link rel="stylesheet" href="/static/site.css" />
        <script src="/static/live.js" defer />
      </head>
      <body class="presentation-body">
        <main id="content">
          <h1>{title}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}
