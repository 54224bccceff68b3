import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { type Lang, t } from '../../i18n/index.js';
import { Breadcrumbs } from '../../web/components.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { sendPage } from '../../web/render.js';
import { objectKey, type ObjectRef } from '../../features/comments/queries.js';
import { loadWholeThreadViews, type ThreadView } from '../../features/threads/queries.js';
import { CommentThread } from '../../features/threads/views.js';
import { IdeaListQuery, type IdeaListParams, loadIdeaList } from '../../features/ideas/list.js';
import { IdeaList, type IdeaListData } from '../../features/ideas/views.js';
import { loadModuleContext, type LoadedModuleContext } from '../../core/projects/context.js';
import { moduleExportPath, modulePath, projectPath } from '../../core/urls.js';
import { mayExportModule } from '../../features/exports/rules.js';
import { PHASE_FEATURES } from '../../core/modules/phases.js';
import { loadModulePage, loadProjectModules, moduleItems, type ModuleItems, type PageModule } from '../../core/modules/queries.js';
import { moduleClusters } from '../../core/modules/timeline.js';
import { canViewModule } from '../../core/modules/rules.js';
import { PhaseList } from '../../web/phase-list.js';

const ModuleParams = Type.Object({ org: Slug, slug: Slug });

/** A module whose phases are about ideas (brainstorming, idea challenge) shows the idea list. */
export const isIdeaModule = (module: PageModule) => ['BS', 'IC'].includes(module.blueprintType) || module.phases.some((p) => PHASE_FEATURES[p.type]?.model === 'idea');

/** What a module's participation view shows: its phases, its idea list, its polls and chapters with their discussions. */
export interface ModuleContentData {
  module: PageModule;
  ideas: IdeaListData | null;
  items: ModuleItems;
  threads: Map<string, ThreadView>;
  selected: number | null;
  now: Date;
}

/** Loads a module's participation view for a viewer (the module page, and the project page of a one-module project). */
export async function loadModuleContent(
  db: DbOrTx,
  request: FastifyRequest,
  config: Config,
  input: { page: PageContext; orgSlug: string; path: string; module: PageModule; context: LoadedModuleContext; query: IdeaListParams & { comment?: string } },
): Promise<ModuleContentData> {
  const { page, module, context: rules } = input;
  const now = rules.now;
  const ideas = isIdeaModule(module) ? await loadIdeaList(db, { orgSlug: input.orgSlug, path: input.path, module, rules, userId: page.user?.id ?? null, query: input.query }) : null;
  const items = await moduleItems(db, module.id);
  const refs: ObjectRef[] = [
    ...items.polls.map((p) => ({ type: 'poll' as const, id: p.id })),
    ...items.chapters.flatMap((c) => [{ type: 'chapter' as const, id: c.id }, ...c.paragraphs.map((p) => ({ type: 'paragraph' as const, id: p.id }))]),
  ];
  // Whole threads here (a module has few polls and paragraphs), so that every `?comment=` link lands; all of them in a constant number of statements.
  const threads = await loadWholeThreadViews(db, request, config, page, rules, refs);
  return { module, ideas, items, threads, selected: Number(input.query.comment ?? '') || null, now };
}

function ItemThread({ page, data, kind, id }: { page: PageContext; data: ModuleContentData; kind: ObjectRef['type']; id: number }) {
  const thread = data.threads.get(objectKey({ type: kind, id }));
  if (!thread) return null;
  return <CommentThread page={page} thread={thread} selected={data.selected} pageLink={() => '#'} heading={{ id: `${kind}-${id}-comments`, level: 4 }} />;
}

export function ModuleContent({ page, data }: { page: PageContext; data: ModuleContentData }) {
  const { lang } = page;
  return (
    <>
      <PhaseList page={page} phases={data.module.phases} now={data.now} />
      {data.ideas && <IdeaList page={page} data={data.ideas} />}
      {data.items.polls.length > 0 && (
        <section aria-labelledby="polls-heading">
          <h2 id="polls-heading">{t(lang, 'Polls')}</h2>
          {data.items.polls.map((poll) => (
            <article id={`poll-${poll.id}`} aria-labelledby={`poll-${poll.id}-heading`}>
              <h3 id={`poll-${poll.id}-heading`}>{t(lang, 'Poll %(id)s', { id: poll.id })}</h3>
              <ItemThread page={page} data={data} kind="poll" id={poll.id} />
            </article>
          ))}
        </section>
      )}
      {data.items.chapters.length > 0 && (
        <section aria-labelledby="chapters-heading">
          <h2 id="chapters-heading">{t(lang, 'Chapters')}</h2>
          {data.items.chapters.map((chapter) => (
            <article id={`chapter-${chapter.id}`} aria-labelledby={`chapter-${chapter.id}-heading`}>
              <h3 id={`chapter-${chapter.id}-heading`}>{chapter.name}</h3>
              <ItemThread page={page} data={data} kind="chapter" id={chapter.id} />
              {chapter.paragraphs.map((paragraph) => (
                <section id={`paragraph-${paragraph.id}`} aria-labelledby={`paragraph-${paragraph.id}-heading`}>
                  <h4 id={`paragraph-${paragraph.id}-heading`}>{paragraph.name || t(lang, 'Paragraph %(id)s', { id: paragraph.id })}</h4>
                  <ItemThread page={page} data={data} kind="paragraph" id={paragraph.id} />
                </section>
              ))}
            </article>
          ))}
        </section>
      )}
    </>
  );
}

/** Where a module stands among its project's modules (§A6.2–3): its timeline entry and its neighbours in that entry. */
export async function modulePlace(db: DbOrTx, module: { id: number; projectId: number }) {
  const clusters = moduleClusters(await loadProjectModules(db, module.projectId, false));
  const entry = clusters.findIndex((c) => c.modules.some((m) => m.id === module.id));
  const siblings = entry >= 0 ? clusters[entry].modules : [];
  const index = siblings.findIndex((m) => m.id === module.id);
  return { entry, siblings, index, several: clusters.length > 1 };
}

type ModulePlace = Awaited<ReturnType<typeof modulePlace>>;

/** "Previous · k of n · Next" between the modules of a cluster (§A6.2); nothing for a module alone in its entry. */
function ModuleNavigation({ lang, orgSlug, place }: { lang: Lang; orgSlug: string; place: ModulePlace }) {
  const { siblings, index } = place;
  if (siblings.length < 2) return null;
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  return (
    <nav class="pager" aria-label={t(lang, 'Modules of this project')}>
      {previous && (
        <a href={modulePath(orgSlug, previous.slug)} rel="prev">
          {t(lang, 'Previous')}
        </a>
      )}{' '}
      <span>{t(lang, '%(k)s of %(n)s', { k: index + 1, n: siblings.length })}</span>{' '}
      {next && (
        <a href={modulePath(orgSlug, next.slug)} rel="next">
          {t(lang, 'Next')}
        </a>
      )}
    </nav>
  );
}

/** The module page (§A6): the module's participation view under its project's breadcrumb. */
export async function modulePages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/:org/projects/module/:slug/', pageRoute({ params: ModuleParams, querystring: IdeaListQuery }), async (request, reply) => {
    const { org, slug } = request.params;
    const page = await pageContext(request, reply);
    const module = await loadModulePage(db, org, slug);
    const context = module && (await loadModuleContext(db, module.id, page.user));
    if (!module || !context) throw notFound();
    if (!canViewModule(context)) throw denied(page.user);
    const data = await loadModuleContent(db, request, config, { page, orgSlug: org, path: request.url.split('?')[0], module, context, query: request.query });
    const place = await modulePlace(db, module);
    // Back to the project page at this module's timeline entry (§A6.1).
    const back = place.several && place.entry >= 0 ? `${projectPath(org, module.projectSlug)}?initialSlide=${place.entry}` : projectPath(org, module.projectSlug);
    return sendPage(
      reply,
      <Layout page={page} title={module.name}>
        <Breadcrumbs
          lang={page.lang}
          items={[
            { href: `/${org}/`, label: module.organisationName },
            { href: back, label: module.projectName },
          ]}
        />
        <h1>{module.name}</h1>
        <ModuleNavigation lang={page.lang} orgSlug={org} place={place} />
        {module.isDraft && <p class="badge">{t(page.lang, 'draft')}</p>}
        {module.description && <p class="lead">{module.description}</p>}
        {mayExportModule(context.project, module) && (
          <p>
            <a class="btn btn-secondary" href={moduleExportPath(org, module.slug)}>
              {t(page.lang, 'Export the ideas and comments')}
            </a>
          </p>
        )}
        <ModuleContent page={page} data={data} />
      </Layout>,
    );
  });
}
